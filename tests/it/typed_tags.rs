//! Tags that carry meaning (chess `Variant`, `SetUp`, `FEN`; draughts
//! `GameType`, `FEN`) have one source of truth: the typed fields the reader
//! lifts them into. A game from JSON whose typed fields and tags disagree
//! (an edited setup, a removed tag) is written with tags that say what the
//! typed fields say; tags that agree are kept as written.

use crate::common;

use common::*;
use serde_json::Value;

/// Reads `text` as `from`, dumps it as JSON, lets `edit` change the game,
/// and writes the edited JSON back as `from`.
fn through_json(from: &str, text: &str, edit: impl Fn(&mut Value)) -> String {
    let json = convert(from, "json", &[], text.as_bytes());
    assert!(json.status.success(), "{}", stderr(&json));
    let mut games: Value = serde_json::from_str(&stdout(&json)).unwrap();
    edit(&mut games[0]);
    let back = convert("json", from, &[], games.to_string().as_bytes());
    no_panic(&back);
    assert!(back.status.success(), "{}", stderr(&back));
    stdout(&back)
}

fn drop_tag(game: &mut Value, name: &str) {
    game["tags"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != name);
}

const DRAUGHTS: &str = "[GameType \"20\"]\n[FEN \"W:W31,32:B19,20\"]\n\n1. 32-28 19-23 *\n";

#[test]
fn draughts_fen_tag_follows_the_setup() {
    // Unchanged: the tags are kept as written.
    assert_eq!(through_json("draughts-num", DRAUGHTS, |_| {}), DRAUGHTS);
    // The FEN tag removed: the setup still gives it.
    assert_eq!(
        through_json("draughts-num", DRAUGHTS, |g| drop_tag(g, "FEN")),
        DRAUGHTS
    );
    // The setup edited: the FEN tag says the new position.
    let out = through_json("draughts-num", DRAUGHTS, |g| {
        g["setup"]["draughts"]["white"][0]["square"] = 33.into();
        g["setup"]["draughts"]["black"][1]["king"] = true.into();
    });
    assert!(out.contains("[FEN \"W:W33,32:B19,K20\"]"), "{out}");
    // The setup removed: no FEN tag claims one.
    let out = through_json("draughts-num", DRAUGHTS, |g| {
        g.as_object_mut().unwrap().remove("setup");
    });
    assert!(!out.contains("FEN"), "{out}");
}

const CHESS: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n\
[FEN \"4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1\"]\n\n1. O-O *\n";

#[test]
fn chess_setup_and_variant_tags_follow_the_typed_fields() {
    assert_eq!(through_json("pgn", CHESS, |_| {}), CHESS);
    // Both tags removed: the setup gives them back, with standard castling
    // letters (the setup holds Shredder letters).
    let out = through_json("pgn", CHESS, |g| {
        drop_tag(g, "FEN");
        drop_tag(g, "SetUp");
    });
    assert_eq!(out, CHESS);
    // No setup: the FEN tag is dropped, and the game replays from the
    // standard start.
    let out = through_json(
        "pgn",
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *\n",
        |g| {
            g.as_object_mut().unwrap().remove("setup");
        },
    );
    assert!(!out.contains("FEN") && out.contains("1. e4 *"), "{out}");
    // A Chess960 game without its Variant tag gets one.
    let c960 = "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. e4 *\n";
    let out = through_json("pgn", c960, |g| drop_tag(g, "Variant"));
    assert!(out.contains("[Variant \"Chess960\"]"), "{out}");
}

#[test]
fn sllavcco_header_follows_the_typed_fields() {
    let json = convert("pgn", "json", &[], CHESS.as_bytes());
    let mut games: Value = serde_json::from_str(&stdout(&json)).unwrap();
    drop_tag(&mut games[0], "FEN");
    let out = convert("json", "sllavcco", &[], games.to_string().as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("FEN\t4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1\n"),
        "{}",
        stdout(&out)
    );
}

/// A tag that carries meaning, written twice: the reader lifts the first
/// (`ir::find_tag`) and keeps the repeat as written; every writer of the
/// family writes the game so that it reads back the same, the repeat never
/// rising to be read in the first one's place. Each case: the format, the
/// record, and the other notations of its family to write it in.
const REPEATED: &[(&str, &str, &[&str])] = &[
    // The first FEN gives no position (an empty value, lidraughts' `?`).
    (
        "draughts-num",
        "[GameType \"20\"]\n[FEN \"\"]\n[FEN \"W:W31,32:B19,20\"]\n\n1. 32-28 19-23 *\n",
        &["draughts-diag"],
    ),
    (
        "draughts-num",
        "[GameType \"20\"]\n[FEN \"?\"]\n[FEN \"B:W17,24,2 \\\"B:W17\"]\n\n1. 32-28 19-23 *\n",
        &["draughts-diag"],
    ),
    (
        "draughts-num",
        "[GameType \"20\"]\n[FEN \"W:W31,32:B19,20\"]\n[FEN \"W:W33:B18\"]\n\n1. 32-28 19-23 *\n",
        &["draughts-diag"],
    ),
    (
        "draughts-num",
        "[GameType \"20\"]\n[GameType \"21\"]\n\n1. 32-28 19-23 *\n",
        &["draughts-diag"],
    ),
    (
        "pgn",
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\
         [FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. e4 *\n",
        &["sllavcco"],
    ),
    (
        "pgn",
        "[Variant \"Standard\"]\n[Variant \"Chess960\"]\n\n1. e4 *\n",
        &["sllavcco"],
    ),
    (
        "tenjiku",
        "[SetUp \"1\"]\n\
         [FEN \"8,k,7/16/11,+P,4/6,p,2,g,6/6,Ln,9/8,N,6,s/16/8,P,1,FiD,5/16/16/10,FiD,5/16/16/16/16/7,K,8 b\"]\n\
         [FEN \"8,k,7/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7,K,8 b\"]\n\n1. P-8g K-8b *\n",
        &[],
    ),
    (
        "tafl",
        "[Rules \"brandubh\"]\n[Rules \"tablut\"]\n\n1. d2-e2 c4-c5 *\n",
        &[],
    ),
    (
        "coerceo",
        "[Variant \"Ocius\"]\n[Variant \"Laurentius\"]\n\
         [Position \"1b2w1/2w1w1/3b1b/w3w1/1b3b/w1w3/1b1b2/-/-/-/-/-/-/-/-/-/-/-/- w 1:0\"]\n\
         [Position \"?\"]\n\n1# T x1b 2# 3d-3b *\n",
        &[],
    ),
];

fn as_json(format: &str, text: &str) -> Value {
    let out = convert(format, "json", &[], text.as_bytes());
    no_panic(&out);
    assert!(out.status.success(), "{format}: {}\n{text}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn a_repeated_typed_tag_reads_back_as_the_first() {
    for &(format, record, others) in REPEATED {
        let read = as_json(format, record);
        // The repeat is said, where it stands.
        let out = convert(format, "json", &[], record.as_bytes());
        // The line of the first tag whose name came before.
        let names: Vec<&str> = record
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        let line = (1..names.len())
            .find(|&i| names[i].starts_with('[') && names[..i].contains(&names[i]))
            .unwrap()
            + 1;
        assert!(
            stderr(&out).contains(&format!(
                "-:{line}:1: warning[repeated-tag]: game 1: a second "
            )),
            "{format}: {}",
            stderr(&out)
        );
        for &to in std::iter::once(&format).chain(others) {
            let out = convert(format, to, &[], record.as_bytes());
            assert!(out.status.success(), "{format} -> {to}: {}", stderr(&out));
            let back = as_json(to, &stdout(&out));
            assert_eq!(
                back[0]["setup"],
                read[0]["setup"],
                "{format} -> {to}:\n{record}---\n{}",
                stdout(&out)
            );
            assert_eq!(back[0]["variant"], read[0]["variant"], "{format} -> {to}");
            // The repeat is kept, as written.
            let names = |g: &Value| -> usize { g["tags"].as_array().unwrap().len() };
            assert!(
                names(&back[0]) >= names(&read[0]),
                "{format} -> {to}: a tag lost\n{}",
                stdout(&out)
            );
        }
    }
}

#[test]
fn a_setup_removed_drops_every_repeat_that_would_be_read_as_one() {
    for &(format, record, _) in REPEATED {
        let mut read = as_json(format, record);
        if read[0]["setup"].is_null() {
            continue;
        }
        // The moves go too: they were played from the setup.
        read[0].as_object_mut().unwrap().remove("setup");
        read[0]["moves"]["plies"] = Value::Array(Vec::new());
        let out = convert("json", format, &[], read.to_string().as_bytes());
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        let back = as_json(format, &stdout(&out));
        assert!(
            back[0]["setup"].is_null(),
            "{format}: a setup rose again:\n{}",
            stdout(&out)
        );
    }
}
