//! The registry of families and formats, walked: every family kifu
//! registers (`kifu::family::Family::ALL`) and every format of the list
//! (`kifu::format::FORMATS`) has what the project promises for each, so that
//! a family or format added without one of them fails here, not in a user's
//! hands:
//! - a fuzz target that reads it and one that round-trips it (`fuzz/`:
//!   `tests/fuzz_regressions.rs` requires them of every format kifu reads);
//! - its part of the XML schema (`schema/kifu.xsd`, made from the
//!   registry, its types named as its registration line);
//! - a sample in the bundled corpus (`corpus/FAMILY/`) that each of its
//!   notations reads;
//! - a round trip of those samples: X -> X -> X stable, X -> json -> X and
//!   X -> xml -> X equal to X -> X (the fuzz targets' own check), and every
//!   game written in each other notation of its family reads back to the
//!   same moves.

use std::fs;
use std::path::{Path, PathBuf};

use crate::check;
use kifu::codec::ReadOptions;
use kifu::family::Family;
use kifu::format::{by_name, Format, FORMATS};
use kifu::ir::Game;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The formats that hold games of `family`.
fn notations(family: Family) -> impl Iterator<Item = &'static Format> {
    FORMATS.iter().filter(move |f| f.family == Some(family))
}

/// `schema/kifu.xsd` is the schema kifu makes from the registry
/// (`kifu::interchange::xml::xsd`: the frame and every family's part), so
/// that a family added to the registry is in the file too; with
/// `KIFU_BLESS=1` the test writes the file instead of failing.
#[test]
fn the_xml_schema_is_made_from_the_registry() {
    let path = root().join("schema/kifu.xsd");
    let made = kifu::interchange::xml::xsd();
    if std::env::var_os("KIFU_BLESS").is_some() {
        fs::write(&path, made).unwrap();
    }
    let file = fs::read_to_string(&path).unwrap();
    assert!(
        file == made,
        "schema/kifu.xsd is not what kifu makes from the registry: \
         `kifu schema --xsd > schema/kifu.xsd` (or KIFU_BLESS=1) writes it"
    );
    for family in Family::ALL {
        let name = family.name();
        assert!(
            made.contains(&format!("<xs:enumeration value=\"{name}\"/>")),
            "the family enumeration lacks {name}"
        );
        let ty = format!("{family:?}Move");
        assert!(
            made.contains(&format!("<xs:element name=\"{name}\" type=\"{ty}\"/>")),
            "no move element for {name}"
        );
        assert!(
            made.contains(&format!("<xs:complexType name=\"{ty}\"")),
            "{name}'s move type {ty} is not defined by its part"
        );
        for t in family.results().tokens() {
            assert!(
                made.contains(&format!("<xs:enumeration value=\"{}\"/>", t.result.token())),
                "{name}'s result {} is not in the schema",
                t.result.token()
            );
        }
    }
}

/// A table of docs/cli.md made from the registry: the table under `head`
/// holds `made`'s rows, in order, each a row of the doc whose first cells
/// are the made row's key (`key` cells of it), or the made row where the
/// doc has none; `check` is called on each row kept with its key. With
/// `KIFU_BLESS=1` the test writes the table (a new row as made, the rows
/// there kept as written).
fn table_of_the_cli_docs(
    head: &str,
    key: usize,
    made: &[String],
    check: impl Fn(&[String], &str),
    what: &str,
) {
    let path = root().join("docs/cli.md");
    let doc = fs::read_to_string(&path).unwrap();
    let start = doc
        .find(head)
        .unwrap_or_else(|| panic!("docs/cli.md has the {what}"))
        + head.len();
    let end = start + doc[start..].find("\n\n").unwrap_or(doc.len() - start) + 1;
    let rows: Vec<&str> = doc[start..end].lines().collect();
    let cells = |row: &str| -> Vec<String> {
        row.trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_string())
            .collect()
    };
    let mut table = String::new();
    for made_row in made {
        let wanted = cells(made_row);
        let row = rows
            .iter()
            .find(|r| cells(r).get(..key) == wanted.get(..key))
            .map_or(made_row.clone(), |r| r.to_string());
        check(&cells(&row), made_row);
        table.push_str(&row);
        table.push('\n');
    }
    if table != doc[start..end] && std::env::var_os("KIFU_BLESS").is_some() {
        fs::write(&path, format!("{}{table}{}", &doc[..start], &doc[end..])).unwrap();
        return;
    }
    assert_eq!(
        doc[start..end],
        table,
        "docs/cli.md: the {what} is not the registry's (KIFU_BLESS=1 writes it)"
    );
}

/// The format table of docs/cli.md ("Formats") lists every format of the
/// list, in its order, with its family (`any` for an interchange format)
/// and its extensions (a new format's row made with its description).
#[test]
fn the_format_table_of_the_cli_docs_is_the_format_list() {
    let made: Vec<String> = FORMATS
        .iter()
        .map(|format| {
            let extensions: Vec<String> = format
                .extensions
                .iter()
                .map(|e| format!("`.{e}`"))
                .collect();
            format!(
                "| `{}` | {} | {} | {} |",
                format.name,
                extensions.join(", "),
                format.family.map_or("any", |f| f.name()),
                format.description
            )
        })
        .collect();
    table_of_the_cli_docs(
        "| format | extensions | family | what |\n|---|---|---|---|\n",
        1,
        &made,
        |row, made| {
            let format = by_name(row[0].trim_matches('`')).expect("a format of the list");
            assert_eq!(
                row[2],
                format.family.map_or("any", |f| f.name()),
                "docs/cli.md: {}'s family ({made})",
                row[0]
            );
            for e in format.extensions {
                assert!(
                    row[1].contains(&format!("`.{e}`")),
                    "docs/cli.md: {} lacks its extension .{e}",
                    row[0]
                );
            }
        },
        "format table",
    );
}

/// The options table of docs/cli.md ("Format options") has a row for each
/// option the registry declares, in the order of the format list: the
/// formats that share its declaration, its name and its sides (a new
/// option's row made with its values and default, which the doc may then
/// say at more length).
#[test]
fn the_options_table_of_the_cli_docs_is_the_registrys() {
    use kifu::options::{FormatOption, Sides, Values};
    let mut options: Vec<(&'static FormatOption, Vec<&'static str>)> = Vec::new();
    for format in FORMATS {
        for option in format.options.list {
            match options.iter_mut().find(|(o, _)| std::ptr::eq(*o, option)) {
                Some((_, formats)) => formats.push(format.name),
                None => options.push((option, vec![format.name])),
            }
        }
    }
    let sides = |o: &FormatOption| match o.sides {
        Sides::Read => "read",
        Sides::Write => "write",
        Sides::Both => "read, write",
    };
    let made: Vec<String> = options
        .iter()
        .map(|(o, formats)| {
            let formats: Vec<String> = formats.iter().map(|f| format!("`{f}`")).collect();
            let values = match o.values {
                Values::OneOf(words) => words
                    .iter()
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                Values::Kind(kind) => kind.to_string(),
            };
            let default = match o.values {
                Values::OneOf(_) => format!("`{}`", o.default),
                Values::Kind(_) => o.default.to_string(),
            };
            format!(
                "| {} | `{}` | {} | {values} | {default} |",
                formats.join(", "),
                o.name,
                sides(o)
            )
        })
        .collect();
    table_of_the_cli_docs(
        "| format | option | side | values | default |\n|---|---|---|---|---|\n",
        3,
        &made,
        |_, _| {},
        "options table",
    );
}

/// The tables of kinds of docs/cli.md ("Kinds") are the list of kinds
/// (`kifu::error::Kind::ALL`), each with its doc's sentence: those that
/// messages show in one, the kinds of errors they do not show in the
/// other; so that a kind added in the code is in the book (`KIFU_BLESS=1`
/// writes the tables).
#[test]
fn the_kinds_tables_of_the_cli_docs_are_the_list_of_kinds() {
    for (shown, head, what) in [
        (true, "| kind | what |\n|---|---|\n", "table of kinds"),
        (
            false,
            "| kind of error | what |\n|---|---|\n",
            "table of the kinds of errors",
        ),
    ] {
        let made: Vec<String> = kifu::error::Kind::ALL
            .iter()
            .filter(|k| k.shown() == shown)
            .map(|k| format!("| `{}` | {} |", k.name(), k.what()))
            .collect();
        table_of_the_cli_docs(head, 2, &made, |_, _| {}, what);
    }
}

/// A record read as `format` reads it.
fn read(format: &'static Format, text: &str) -> Result<Game, kifu::error::Problem> {
    format
        .read
        .unwrap()
        .game(text, &ReadOptions::default())
        .map(|p| p.game)
}

/// The files of `corpus/FAMILY/` that `format` reads: those with one of its
/// extensions, each giving games and no failure.
fn samples(family: Family, format: &'static Format) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root().join("corpus").join(family.name());
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(&dir) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !format
            .extensions
            .iter()
            .any(|e| name.ends_with(&format!(".{e}")))
        {
            continue;
        }
        let data = fs::read(&path).unwrap();
        let records = check::game_records(format, &data);
        let reads = |r: &Vec<u8>| read(format, &String::from_utf8_lossy(r)).is_ok();
        if !records.is_empty() && records.iter().all(reads) {
            out.push((path, data));
        }
    }
    out
}

#[test]
fn every_notation_of_every_family_has_a_corpus_sample_that_round_trips() {
    for &family in Family::ALL {
        let mut notations_read = 0;
        for format in notations(family).filter(|f| f.read.is_some()) {
            notations_read += 1;
            let samples = samples(family, format);
            assert!(
                !samples.is_empty(),
                "corpus/{}/ holds no sample that {} reads whole (a file ending .{})",
                family.name(),
                format.name,
                format.extensions[0]
            );
            for (path, data) in &samples {
                // X -> X -> X, X -> json -> X, X -> xml -> X.
                if format.write.is_some() {
                    check::round_trips(format.name, data);
                }
                // Into every other notation of the family and back: the
                // same moves.
                for to in notations(family).filter(|t| t.write.is_some() && t.read.is_some()) {
                    same_moves_through(format, to, path, data);
                }
            }
        }
        assert!(
            notations_read > 0,
            "{} has no notation kifu reads",
            family.name()
        );
    }
}

/// Every game of `data` (read as `from`) written as `to` and read back has
/// the same moves, by their keys (what `kifu diff` compares), or was
/// refused by the writer with an error (a notation that cannot hold it).
fn same_moves_through(from: &'static Format, to: &'static Format, path: &Path, data: &[u8]) {
    for record in check::game_records(from, data) {
        let text = String::from_utf8_lossy(&record);
        let Ok(game) = read(from, &text) else {
            continue;
        };
        let mut written = String::new();
        if (to.write.unwrap())(&game, &Default::default(), &mut written).is_err() {
            continue;
        }
        let back = read(to, &written).unwrap_or_else(|e| {
            panic!(
                "{}: {} -> {} does not read back: {}\n{written}",
                path.display(),
                from.name,
                to.name,
                e.message
            )
        });
        let keys =
            |g: &Game| -> Vec<String> { g.moves.plies.iter().map(|p| p.mv.key(false)).collect() };
        assert_eq!(
            keys(&game),
            keys(&back),
            "{}: {} -> {} -> {} changes the moves",
            path.display(),
            from.name,
            to.name,
            to.name
        );
    }
}
