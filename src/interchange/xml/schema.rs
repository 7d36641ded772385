//! The XML Schema of the `xml` format, made from the registry: the frame
//! (`schema/frame.xsd`: the parts every game has) filled in with every
//! family's part ([`crate::family::GameFamily::SCHEMA`]) and the result
//! tokens of every family's table. `schema/kifu.xsd` is a copy of it, which
//! `tests/it/registry.rs` keeps the same.

use std::sync::LazyLock;

use crate::family::Family;

/// The frame, with a marker line (`<!-- kifu:moves -->`) where each list
/// of the families goes.
const FRAME: &str = include_str!("../../../schema/frame.xsd");

/// The XML Schema every document kifu writes is valid against
/// (`schema/kifu.xsd`, which `kifu schema --xsd` prints).
pub fn xsd() -> &'static str {
    static XSD: LazyLock<String> = LazyLock::new(make);
    &XSD
}

/// The schema, made from the frame and the registry.
fn make() -> String {
    let (mut moves, mut families, mut boards, mut setups, mut types, mut results) = (
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    );
    let mut attributes_seen: Vec<(String, String)> = Vec::new();
    let mut tokens: Vec<&str> = Vec::new();
    for &family in Family::ALL {
        let (name, part) = (family.name(), family.schema());
        moves.push_str(&format!(
            "        <xs:element name=\"{name}\" type=\"{family:?}Move\"/>\n"
        ));
        families.push_str(&format!("          <xs:enumeration value=\"{name}\"/>\n"));
        let mut own = String::new();
        for attribute in attributes(part.board) {
            let named = attribute_name(&attribute);
            match attributes_seen.iter().find(|(n, _)| *n == named) {
                Some((_, text)) => assert_eq!(
                    text, &attribute,
                    "{name}'s board attribute {named} reads otherwise in another family's"
                ),
                None => {
                    own.push_str(&attribute);
                    attributes_seen.push((named, attribute));
                }
            }
        }
        if !own.is_empty() {
            boards.push_str(&format!("    <!-- {name} -->\n{own}"));
        }
        if let Some(setup) = part.setup {
            setups.push_str(&format!(
                "      <xs:element name=\"{name}\" type=\"{setup}\"/>\n"
            ));
        }
        types.push_str(part.types);
        types.push('\n');
        for t in family.results().tokens() {
            // Each result by its canonical token, once.
            if t.result.token() == t.text && !tokens.contains(&t.text) {
                tokens.push(t.text);
                results.push_str(&format!("      <xs:enumeration value=\"{}\"/>\n", t.text));
            }
        }
    }
    let mut out = String::with_capacity(FRAME.len() + types.len() * 2);
    for line in FRAME.split_inclusive('\n') {
        let marker = line
            .trim()
            .strip_prefix("<!-- kifu:")
            .and_then(|l| l.strip_suffix(" -->"));
        out.push_str(match marker {
            Some("moves") => &moves,
            Some("families") => &families,
            Some("boards") => &boards,
            Some("setups") => &setups,
            Some("types") => &types,
            Some("results") => &results,
            Some(other) => panic!("schema/frame.xsd: no list {other}"),
            None => line,
        });
    }
    out
}

/// The `<xs:attribute>` elements of a board's part, each with its lines.
fn attributes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        match out.last_mut() {
            Some(last) if !line.trim_start().starts_with("<xs:attribute ") => last.push_str(line),
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// The name an `<xs:attribute>` element gives.
fn attribute_name(attribute: &str) -> String {
    attribute
        .split_once("name=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or_else(String::new, |(name, _)| name.to_string())
}
