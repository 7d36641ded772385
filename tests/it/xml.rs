//! The `xml` format read: predefined entities and character references
//! read, a DOCTYPE and entities are refused with their place, malformed XML
//! is a located error. What kifu writes is validated against
//! schema/kifu.xsd by xmllint in `tests/conformance/xml.rs`.

use crate::common::{convert, counts, errors_are_located, no_panic, stderr, stdout};

/// Entity references, escaped as XML writes them by hand, read back.
#[test]
fn predefined_entities_and_character_references_are_read() {
    let doc = "<?xml version=\"1.0\"?>\n<games>\n<!-- a comment -->\n<game>\n  \
        <variant family=\"chess\"/>\n  \
        <tag><name>Event</name><value>&lt;&gt;&amp;&quot;&apos; &#65;&#x42; <![CDATA[<&>]]></value></tag>\n  \
        <moves/>\n  <result>*</result>\n</game>\n</games>\n";
    let out = convert("xml", "pgn", &[], doc.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("[Event \"<>&\\\"' AB <&>\"]"),
        "{}",
        stdout(&out)
    );
    // The comment between games is said to belong to no game.
    assert!(
        stderr(&out).contains("belong to no game"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_doctype_entity_declarations_and_entity_references_are_refused() {
    let secret = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(secret.path(), "SECRET-CONTENT").expect("written");
    let game = |event: &str| {
        format!(
            "<game><variant family=\"chess\"/><tag><name>Event</name><value>{event}</value></tag><moves/></game>\n"
        )
    };
    let doc = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE games [\n<!ENTITY xxe SYSTEM \"file://{}\">\n<!ENTITY a \"inner\">\n]>\n<games>\n{}{}<!ENTITY b \"bbb\">\n{}</games>\n",
        secret.path().display(),
        game("plain"),
        game("&xxe;"),
        game("x&a;y").replace("<moves/>", "<moves/><result>&a;</result>"),
    );
    let out = convert("xml", "pgn", &[], doc.as_bytes());
    no_panic(&out);
    let err = stderr(&out);
    assert!(errors_are_located(&err), "{err}");
    assert_eq!(counts(&out), (1, 4), "{err}");
    assert!(!out.status.success());
    for (at, wanted) in [
        ("2:1", "a DOCTYPE is refused"),
        ("8:62", "the entity reference &xxe; is refused"),
        ("9:1", "an entity declaration is refused"),
        ("10:63", "the entity reference &a; is refused"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("-:{at}: error: ")) && l.contains(wanted)),
            "no `{wanted}` at {at} in\n{err}"
        );
    }
    let text = stdout(&out);
    assert!(text.contains("[Event \"plain\"]"), "{text}");
    assert!(!text.contains("SECRET") && !text.contains("inner") && !text.contains("bbb"));
    // In an attribute too.
    let doc = "<games><game><variant family=\"chess\" validated=\"&a;\"/><moves/></game></games>";
    let out = convert("xml", "pgn", &[], doc.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains(
            "-:1:14: error: game 1: an entity reference in the attribute validated is refused"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn malformed_xml_is_a_located_error_and_the_next_game_reads() {
    let good = "<game><variant family=\"chess\"/><moves/><result>1-0</result></game>";
    for (bad, at, wanted) in [
        ("<game><variant family=\"chess\"/><moves></game>", "1:39", "malformed XML"),
        ("<game><variant family=\"chess\" x=1/><moves/></game>", "1:7", "malformed XML"),
        ("<game><variant family=\"chess\"/><moves/><tag><name>a</name><value>\u{1}</value></tag></game>", "1:66", "U+0001 cannot appear"),
        ("<game><variant family=\"chess\"/><moves/><result>&#0;</result></game>", "1:48", "malformed XML"),
        ("<game><variant family=\"chess\"/><moves/><result>&#x1b;</result></game>", "1:48", "U+001B, which XML 1.0 cannot hold"),
        ("<game><variant family=\"chess\"/><moves/><bogus/></game>", "1:40", "<game> holds no <bogus>"),
        ("<game><variant family=\"draughts\"/><moves/></game>", "1:7", "missing field `game_type`"),
        ("<game><variant family=\"chess\"/><moves><ply number=\"one\" side=\"white\"><chess>null</chess></ply></moves></game>", "1:39", "`one` is not a number"),
        ("<game><variant family=\"chess\"/><moves><ply number=\"1\" side=\"white\"></ply></moves></game>", "1:39", "the <ply> has no move"),
        ("<game><variant family=\"chess\"/><moves><ply number=\"1\" side=\"white\"><chess><move role=\"pawn\" from=\"e2\" to=\"e9\"/></chess></ply></moves></game>", "1:68", "invalid <chess>"),
        ("<game><variant family=\"chess\"/><moves/><result>2-1</result></game>", "1:40", "`2-1` is not a game result"),
        ("<game><variant family=\"chess\"/><moves/><result>1-0<char code=\"1\"/></result></game>", "1:40", "is not a game result"),
        ("<game><variant family=\"chess\"/><moves/><char code=\"zz\"/></game>", "1:40", "<char> must be empty"),
        ("stray text", "1:1", "text outside a <game> element"),
        ("<other/>", "1:1", "<other> where a <game> is expected"),
    ] {
        let doc = format!("<games>\n{bad}\n{good}\n</games>\n");
        let out = convert("xml", "pgn", &[], doc.as_bytes());
        no_panic(&out);
        let err = stderr(&out);
        assert!(errors_are_located(&err), "{bad}: {err}");
        assert_eq!(counts(&out), (1, 1), "{bad}: {err}");
        assert!(
            err.contains(&format!("-:{}: error: game 1: ", at.replacen("1:", "2:", 1))) && err.contains(wanted),
            "{bad}: no `{wanted}` at {at} in\n{err}"
        );
    }
    // Cut off: the game is an error, nothing panics.
    for cut in [
        "<games><game",
        "<games><game>",
        "<games><game><variant family=\"chess\"",
        "<!DOCTYPE x [<!ENTITY",
    ] {
        let out = convert("xml", "pgn", &[], cut.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (0, 1), "{cut}: {}", stderr(&out));
        assert!(errors_are_located(&stderr(&out)), "{cut}: {}", stderr(&out));
    }
}
