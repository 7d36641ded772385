//! The sllavcco column scoresheet (seed 004), through the binary: every cell
//! form in every piece language both ways, the header fields, Chess960,
//! errors, the HTML page (the shared chess corpus round trip:
//! `tests/conformance/sllavcco.rs`).

use crate::common;

use common::*;

/// The seven-tag roster as the pgn writer fills it in, and the header it
/// gives on a scoresheet.
const ROSTER_PGN: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n";
const ROSTER_SHEET: &str =
    "TOURNAMENT\t?\nPLACE\t?\nDATE\t??.??.????\nROUND\t?\nWHITE\t?\nBLACK\t?\nSCORE\t*\n";
const HEADING: &str = "NUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th";

/// A grid line from a compact spec: `"01 e=4"` is White's line 01 with `4`
/// in column e; `"- d=R+"` is a Black line; `"03"` an all-empty White line.
fn row(spec: &str) -> String {
    let mut parts = spec.split(' ');
    let first = parts.next().unwrap();
    let mut cells = vec![String::new(); 8];
    for p in parts {
        let (file, text) = p.split_once('=').unwrap();
        let col = (file.as_bytes()[0] - b'a') as usize;
        // `~` stands for a space inside a cell (`x6~e.p.`).
        cells[col] = text.replace('~', " ");
    }
    let number = if first == "-" { "" } else { first };
    format!("{number}\t{}\n", cells.join("\t"))
}

/// A whole scoresheet: header lines, a blank line, the grid.
fn sheet(header: &str, rows: &[&str]) -> String {
    let mut s = format!("{header}\n{HEADING}\n");
    for r in rows {
        s.push_str(&row(r));
    }
    s
}

/// A canonical PGN game: the roster, extra tags, movetext.
fn pgn(extra_tags: &str, movetext: &str) -> String {
    format!("{ROSTER_PGN}{extra_tags}\n{movetext}\n")
}

fn setup(fen: &str) -> (String, String) {
    (
        format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"),
        format!("SetUp\t1\nFEN\t{fen}\n"),
    )
}

/// One game with a start position, its movetext and its grid in English.
struct Case {
    what: &'static str,
    fen: Option<&'static str>,
    movetext: &'static str,
    rows: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        what: "pawn moves, piece moves and captures, castling, pawn captures from both sides",
        fen: None,
        movetext: "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d4 exd4 6. e5 d5 7. exf6 dxc4\n8. Re1+ Be6 9. fxg7 Rg8 10. Bg5 Be7 11. Bxe7 Qxe7 12. Nxd4 O-O-O 13. Nxe6 fxe6 *",
        rows: &[
            "01 e=4", "- e=5", "02 f=N3", "- c=N6", "03 c=B4", "- c=B5", "04 f=R g=K", "- f=N6",
            "05 d=4", "- d=4x", "06 e=5", "- d=5", "07 f=x6", "- c=4x", "08 e=R1+", "- e=B6",
            "09 g=x7", "- g=R8", "10 g=B5", "- e=B7", "11 e=B7x", "- e=Q7x", "12 d=N4x",
            "- c=K d=R", "13 e=N6x", "- e=6x",
        ],
    },
    Case {
        what: "pawn captures from the left and the right",
        fen: None,
        movetext: "1. c4 d5 2. cxd5 e5 3. d4 exd4 *",
        rows: &["01 c=4", "- d=5", "02 d=x5", "- e=5", "03 d=4", "- d=4x"],
    },
    Case {
        what: "disambiguation by file",
        fen: Some("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"),
        movetext: "1. Nbd2 *",
        rows: &["01 d=Nb2"],
    },
    Case {
        what: "disambiguation by rank, a subscript digit",
        fen: Some("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1"),
        movetext: "1. N1d2 *",
        rows: &["01 d=N₁2"],
    },
    Case {
        what: "disambiguation by file and rank",
        fen: Some("2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"),
        movetext: "1. Qh4e1 *",
        rows: &["01 e=Qh₄1"],
    },
    Case {
        what: "en passant with check, a game starting with Black to move",
        fen: Some("8/4pk2/8/3P4/8/8/8/4K3 b - - 0 1"),
        movetext: "1... e5 2. dxe6+ *",
        rows: &["01", "- e=5", "02 e=x6~e.p.+"],
    },
    Case {
        what: "en passant from the right, by Black",
        fen: Some("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1"),
        movetext: "1. e4 fxe3 *",
        rows: &["01 e=4", "- e=3x~e.p."],
    },
    Case {
        what: "White promotes, with check",
        fen: Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        movetext: "1. b8=Q+ *",
        rows: &["01 b=Q+"],
    },
    Case {
        what: "White promotes capturing from the right",
        fen: Some("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        movetext: "1. bxa8=N *",
        rows: &["01 a=Nx"],
    },
    Case {
        what: "White promotes capturing from the left, with check",
        fen: Some("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        movetext: "1. axb8=Q+ *",
        rows: &["01 b=xQ+"],
    },
    Case {
        what: "Black promotes, with check",
        fen: Some("4k3/8/8/8/8/8/6p1/K7 b - - 0 1"),
        movetext: "1... g1=R+ *",
        rows: &["01", "- g=R+"],
    },
    Case {
        what: "Black promotes capturing from the right",
        fen: Some("4k3/8/8/8/8/8/3p3K/2B5 b - - 0 1"),
        movetext: "1... dxc1=Q *",
        rows: &["01", "- c=Qx"],
    },
    Case {
        what: "Black promotes capturing from the left, with check",
        fen: Some("4k3/8/8/8/8/8/4p3/5N1K b - - 0 1"),
        movetext: "1... exf1=R+ *",
        rows: &["01", "- f=xR+"],
    },
    Case {
        what: "king side castling with check",
        fen: Some("5k2/8/8/8/8/8/8/4K2R w K - 0 1"),
        movetext: "1. O-O+ *",
        rows: &["01 f=R g=K+"],
    },
    Case {
        what: "queen side castling with check, by Black",
        fen: Some("r3k3/8/8/8/8/8/8/3K4 b q - 0 1"),
        movetext: "1... O-O-O+ *",
        rows: &["01", "- c=K d=R+"],
    },
    Case {
        what: "double check",
        fen: Some("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1"),
        movetext: "1. Nd6+ *",
        rows: &["01 d=N6++"],
    },
    Case {
        what: "mate, a game ending after Black's move",
        fen: None,
        movetext: "1. f3 e5 2. g4 Qh4# *",
        rows: &["01 f=3", "- e=5", "02 g=4", "- h=Q4#"],
    },
    Case {
        what: "null moves are empty lines",
        fen: None,
        movetext: "1. e4 -- 2. -- d5 *",
        rows: &["01 e=4", "-", "02", "- d=5"],
    },
    Case {
        what: "a game ending after White's move, glyphs after the check mark",
        fen: None,
        movetext: "1. e4 $1 e5 $6 2. Qh5 $5 Nc6 3. Bc4 Nf6 $4 4. Qxf7# $1 *",
        rows: &[
            "01 e=4!", "- e=5?!", "02 h=Q5!?", "- c=N6", "03 c=B4", "- f=N6??", "04 f=Q7x#!",
        ],
    },
];

/// The piece languages: the `--pieces` value and its letters for K Q R B N
/// (`None`: figurines).
const LANGUAGES: &[(&str, Option<&str>)] = &[
    ("en", Some("KQRBN")),
    ("sr", Some("KDTLS")),
    ("de", Some("KDTLS")),
    ("fr", Some("RDTFC")),
    ("nl", Some("KDTLP")),
    ("es", Some("RDTAC")),
    ("it", Some("RDTAC")),
    ("figurine", None),
    ("KWTYJ", Some("KWTYJ")),
    ("КФЛСН", Some("КФЛСН")),
];

/// Rewrites the piece letters of grid cells (upper case K Q R B N are
/// pieces there, nothing else is) into a language.
fn localize(text: &str, letters: Option<&str>) -> String {
    let mut out = String::new();
    let mut in_grid = false;
    for line in text.split_inclusive('\n') {
        let white = !line.starts_with('\t');
        let convert = in_grid || line.starts_with("ARRANGEMENT\t");
        if line.starts_with("NUMBER OF THE MOVE") {
            in_grid = true;
        }
        if !convert || line.starts_with("NUMBER OF THE MOVE") {
            out.push_str(line);
            continue;
        }
        let (keep, cells) = match line.split_once('\t') {
            Some((first, rest)) if line.starts_with("ARRANGEMENT\t") => (first, rest),
            _ => ("", line),
        };
        if !keep.is_empty() {
            out.push_str(keep);
            out.push('\t');
        }
        for c in cells.chars() {
            match "KQRBN".find(c) {
                Some(i) => out.push(match letters {
                    Some(l) => l.chars().nth(i).unwrap(),
                    None if white => "♔♕♖♗♘".chars().nth(i).unwrap(),
                    None => "♚♛♜♝♞".chars().nth(i).unwrap(),
                }),
                None => out.push(c),
            }
        }
    }
    out
}

fn case_texts(case: &Case) -> (String, String) {
    let (tags, fields) = case.fen.map(setup).unwrap_or_default();
    (
        pgn(&tags, case.movetext),
        sheet(&format!("{ROSTER_SHEET}{fields}"), case.rows),
    )
}

fn ok(out: &std::process::Output, what: &str) -> String {
    no_panic(out);
    assert!(out.status.success(), "{what}: {}", stderr(out));
    assert_eq!(counts(out).1, 0, "{what}: {}", stderr(out));
    stdout(out)
}

/// One game converted in-process as `kifu convert --from FROM --to TO
/// [--pieces P]` converts it (the record cut by the format's scanner, the
/// options built from the shorthand as the CLI builds them), framed as the
/// CLI frames one game. The process adds nothing here (tests/options.rs
/// runs `--pieces` through the binary): this table runs some 600
/// conversions.
fn converted(from: &str, to: &str, pieces: Option<&str>, text: &str, what: &str) -> String {
    use kifu::archive::{Converter, Records};
    use kifu::codec::{ReadOptions, WriteOptions};
    use kifu::format::by_name;
    use kifu::options::run::resolve;
    use kifu::options::{Given, Sides};
    let (f, t) = (by_name(from).unwrap(), by_name(to).unwrap());
    let given: Vec<Given> = pieces
        .map(|p| Given::shorthand("--pieces", Sides::Both, "pieces", p))
        .into_iter()
        .collect();
    let options = resolve(&given, &[f], t).expect("the options of the run");
    let conv = Converter {
        from: f,
        to: t,
        read: ReadOptions {
            format: options.read(f),
            ..ReadOptions::default()
        },
        write: WriteOptions {
            format: options.write(),
            ..WriteOptions::default()
        },
    };
    let mut records = Records::new(text.as_bytes(), f.split);
    let mut games = Vec::new();
    while let Some(batch) = records.next_batch(1 << 20).expect("reading a slice") {
        for r in batch.records.into_iter().filter(|r| r.is_game) {
            match conv.convert(&batch.data[r.range]).text() {
                Ok((g, _)) => games.push(g),
                Err(p) => panic!("{what}: {}:{}: {}", p.line, p.col, p.message),
            }
        }
    }
    assert_eq!(games.len(), 1, "{what}");
    format!("{}{}{}", t.framing.head, games[0], t.framing.tail)
}

#[test]
fn every_cell_form_is_written_and_read_in_every_piece_language() {
    for case in CASES {
        let (pgn_text, english) = case_texts(case);
        // The PGN is canonical: pgn -> pgn keeps it.
        let same = converted("pgn", "pgn", None, &pgn_text, case.what);
        assert_eq!(same, pgn_text, "{}", case.what);
        for (name, letters) in LANGUAGES {
            let expected = localize(&english, *letters);
            let what = format!("{} ({name})", case.what);
            let written = converted("pgn", "sllavcco", Some(name), &pgn_text, &what);
            assert_eq!(written, expected, "{what}");
            let back = converted("sllavcco", "pgn", Some(name), &expected, &what);
            assert_eq!(back, pgn_text, "{what}");
            let again = converted("sllavcco", "sllavcco", Some(name), &expected, &what);
            assert_eq!(again, expected, "{what}: not canonical");
        }
        // Figurines are read whatever the letters.
        let figurines = localize(&english, None);
        let back = converted("sllavcco", "pgn", Some("fr"), &figurines, case.what);
        assert_eq!(back, pgn_text, "{}: figurines with --pieces fr", case.what);
    }
}

#[test]
fn read_only_forms_are_read() {
    // `N_12` for the subscript, `e.p.` without its space, spaces around
    // cells, CRLF line ends, a SCORE without spaces.
    let (tags, fields) = setup("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1");
    let canonical = sheet(&format!("{ROSTER_SHEET}{fields}"), &["01 d=N₁2"]);
    let loose = sheet(&format!("{ROSTER_SHEET}{fields}"), &["01 d=~N_12~"]).replace('\n', "\r\n");
    let out = ok(
        &convert("sllavcco", "sllavcco", &[], loose.as_bytes()),
        "loose",
    );
    assert_eq!(out, canonical);
    assert_eq!(
        ok(&convert("sllavcco", "pgn", &[], loose.as_bytes()), "loose"),
        pgn(&tags, "1. N1d2 *")
    );
    let ep = sheet(
        &format!(
            "{ROSTER_SHEET}{}",
            setup("8/4pk2/8/3P4/8/8/8/4K3 b - - 0 1").1
        ),
        &["01", "- e=5", "02 e=x6e.p.+"],
    );
    let out = ok(&convert("sllavcco", "pgn", &[], ep.as_bytes()), "e.p.");
    assert!(out.contains("1... e5 2. dxe6+ *"), "{out}");
    let score = sheet("WHITE\tA\nSCORE\t1:0\n", &["01 e=4"]);
    let out = ok(&convert("sllavcco", "pgn", &[], score.as_bytes()), "score");
    assert!(
        out.contains("[Result \"1-0\"]") && out.ends_with("1. e4 1-0\n"),
        "{out}"
    );
    // A DATE that is not DD.MM.YYYY is kept as written, with a warning.
    let date = sheet("DATE\tApril 1970\n", &[]);
    let out = convert("sllavcco", "pgn", &[], date.as_bytes());
    assert!(ok(&out, "date").contains("[Date \"April 1970\"]"));
    assert!(
        stderr(&out).contains(
            "-:1:1: warning[field-as-written]: game 1: DATE `April 1970` is not DD.MM.YYYY: kept as written"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn header_fields_carry_the_tags_both_ways() {
    let games = [
        (
            "[Event \"Simultaneous, Radio Belgrade\"]\n[Site \"Belgrade\"]\n[Date \"1970.04.07\"]\n[Round \"1\"]\n[White \"Petrosjan\"]\n[Black \"Sllavcco\"]\n[Result \"1-0\"]\n[Board \"3\"]\n[WhiteTitle \"GM\"]\n[WhiteElo \"2650\"]\n[WhiteCountry \"URS\"]\n[BlackTitle \"-\"]\n[BlackElo \"2200\"]\n[BlackCountry \"YUG\"]\n[ECO \"C50\"]\n[Annotator \"<x & y>\"]\n\n1. e4 e5 1-0\n",
            "TOURNAMENT\tSimultaneous, Radio Belgrade\nPLACE\tBelgrade\nDATE\t07.04.1970\nROUND\t1\nWHITE\tPetrosjan\nBLACK\tSllavcco\nSCORE\t1 : 0\nCHESSBOARD\t3\nWHITE TITLE\tGM\nWHITE RATING\t2650\nWHITE COUNTRY\tURS\nBLACK TITLE\t-\nBLACK RATING\t2200\nBLACK COUNTRY\tYUG\nECO\tC50\nAnnotator\t<x & y>\n",
        ),
        (
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"1970.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n",
            "TOURNAMENT\t?\nPLACE\t?\nDATE\t??.??.1970\nROUND\t?\nWHITE\t?\nBLACK\t?\nSCORE\t½ : ½\n",
        ),
        (
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"19??.04.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n",
            "TOURNAMENT\t?\nPLACE\t?\nDATE\t??.04.19??\nROUND\t?\nWHITE\t?\nBLACK\t?\nSCORE\t0 : 1\n",
        ),
        // Values that do not fit their field keep their PGN name.
        (
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"April 1970\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1/2\"]\n\n1. e4 e5 1/2-1/2\n",
            "TOURNAMENT\t?\nPLACE\t?\nDate\tApril 1970\nROUND\t?\nWHITE\t?\nBLACK\t?\nResult\t1/2\n",
        ),
    ];
    let mut all_pgn = String::new();
    let mut all_sheets = String::new();
    for (i, (pgn_text, header)) in games.iter().enumerate() {
        let expected = sheet(header, &["01 e=4", "- e=5"]);
        let out = ok(
            &convert("pgn", "sllavcco", &[], pgn_text.as_bytes()),
            header,
        );
        assert_eq!(out, expected);
        let back = ok(
            &convert("sllavcco", "pgn", &[], expected.as_bytes()),
            header,
        );
        assert_eq!(&back, pgn_text);
        if i > 0 {
            all_pgn.push('\n');
            all_sheets.push('\n');
        }
        all_pgn.push_str(pgn_text);
        all_sheets.push_str(&expected);
    }
    // Several games: one blank line between them, both ways.
    let out = convert("pgn", "sllavcco", &[], all_pgn.as_bytes());
    assert_eq!(ok(&out, "all"), all_sheets);
    assert_eq!(counts(&out), (4, 0));
    let back = convert("sllavcco", "pgn", &[], all_sheets.as_bytes());
    assert_eq!(ok(&back, "all"), all_pgn);
    assert_eq!(counts(&back), (4, 0));
}

#[test]
fn a_game_without_result_tag_gets_a_score_and_pgn_gets_its_roster() {
    let out = ok(
        &convert("pgn", "sllavcco", &[], b"[White \"A\"]\n\n1. e4 1-0\n"),
        "no Result",
    );
    assert_eq!(out, sheet("WHITE\tA\nSCORE\t1 : 0\n", &["01 e=4"]));
    // A header with no field at all, and a grid with no move.
    let out = ok(
        &convert("sllavcco", "pgn", &[], format!("{HEADING}\n").as_bytes()),
        "bare",
    );
    assert_eq!(out, format!("{ROSTER_PGN}\n*\n"));
    // A termination marker that the Result tag contradicts is lost: said.
    let out = convert("pgn", "sllavcco", &[], b"[Result \"1-0\"]\n\n1. e4 *\n");
    assert_eq!(ok(&out, "mismatch"), sheet("SCORE\t1 : 0\n", &["01 e=4"]));
    assert!(
        stderr(&out).contains(
            "warning[result-mismatch]: game 1: the game ends with `*` but its Result tag says `1-0`: a scoresheet keeps only the SCORE"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn comments_variations_and_nags_are_dropped_with_one_counted_warning() {
    let input = "{start} 1. e4! $1 {good} (1. d4 d5 {x} (1... Nf6 $2)) 1... e5 {end} *\n";
    let out = convert("pgn", "sllavcco", &[], input.as_bytes());
    let text = ok(&out, "annotated");
    assert_eq!(text, sheet("SCORE\t*\n", &["01 e=4!", "- e=5"]));
    let err = stderr(&out);
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(": warning[dropped-annotations]: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].ends_with(
            "a scoresheet has no place for comments, variations and NAGs: dropped 4 comments, 2 variations, 2 NAGs"
        ),
        "{err}"
    );
    // None when there is nothing to drop.
    let out = convert("pgn", "sllavcco", &[], b"1. e4 e5 *\n");
    ok(&out, "plain");
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

#[test]
fn chess960_castling_and_the_arrangement() {
    // A Chess960 initial position: the arrangement is written; castling
    // is R in f and K in g whatever the files the king and rook come from.
    let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let pgn_text = pgn(
        &format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n"),
        "1. O-O O-O *",
    );
    let english = sheet(
        &format!("{ROSTER_SHEET}Variant\tChess960\nSetUp\t1\nFEN\t{fen}\nARRANGEMENT\tB\tQ\tN\tB\tR\tK\tR\tN\n"),
        &["01 f=R g=K", "- f=R g=K"],
    );
    for (name, letters) in LANGUAGES {
        let expected = localize(&english, *letters);
        let out = ok(
            &convert("pgn", "sllavcco", &["--pieces", name], pgn_text.as_bytes()),
            name,
        );
        assert_eq!(out, expected, "{name}");
        let back = ok(
            &convert("sllavcco", "pgn", &["--pieces", name], expected.as_bytes()),
            name,
        );
        assert_eq!(back, pgn_text, "{name}");
    }
    // Not an initial position: no arrangement; queen side castling with the
    // king on b1 is K in c and R in d.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1";
    let pgn_text = pgn(
        &format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n"),
        "1. O-O-O O-O *",
    );
    let expected = sheet(
        &format!("{ROSTER_SHEET}Variant\tChess960\nSetUp\t1\nFEN\t{fen}\n"),
        &["01 c=K d=R", "- f=R g=K"],
    );
    let out = ok(&convert("pgn", "sllavcco", &[], pgn_text.as_bytes()), "960");
    assert_eq!(out, expected);
    assert_eq!(
        ok(&convert("sllavcco", "pgn", &[], expected.as_bytes()), "960"),
        pgn_text
    );
}

#[test]
fn a_start_position_without_tags_is_written_as_tags() {
    // A Chess960 game from JSON with neither Variant nor FEN tag: the tags
    // are rendered from the typed fields (SetUp with the FEN, as PGN asks).
    let json = r#"{"variant": {"family": "chess", "chess960": true}, "setup": {"chess": "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"}, "moves": {"plies": [{"number": 1, "side": "white", "move": {"chess": {"move": {"role": "king", "from": "f1", "to": "g1", "castle": "king"}}}}]}, "result": "*"}"#;
    let out = ok(&convert("jsonl", "sllavcco", &[], json.as_bytes()), "json");
    assert_eq!(
        out,
        sheet(
            "Variant\tChess960\nSetUp\t1\nFEN\tbqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\nSCORE\t*\nARRANGEMENT\tB\tQ\tN\tB\tR\tK\tR\tN\n",
            &["01 f=R g=K"]
        )
    );
    let back = ok(&convert("sllavcco", "pgn", &[], out.as_bytes()), "back");
    assert!(
        back.ends_with("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. O-O *\n"),
        "{back}"
    );
}

#[test]
fn an_arrangement_without_fen_gives_the_start_position() {
    // Seed 16.2's drawing of lots, in Serbian letters.
    let input = sheet(
        "WHITE\tA\nARRANGEMENT\tL\tT\tK\tL\tS\tT\tD\tS\n",
        &["01 e=4", "- e=5", "02 f=S3"],
    );
    let out = ok(
        &convert("sllavcco", "pgn", &["--pieces", "sr"], input.as_bytes()),
        "sr",
    );
    assert!(
        out.contains("[White \"A\"]\n[Black \"?\"]\n[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"brkbnrqn/pppppppp/8/8/8/8/PPPPPPPP/BRKBNRQN w FBfb - 0 1\"]\n\n1. e4 e5 2. Nf3 *\n"),
        "{out}"
    );
    // With a FEN tag, the FEN wins; an arrangement that disagrees is said.
    let input = sheet(
        "FEN\t4k3/8/8/8/8/8/8/4K3 w - - 0 1\nARRANGEMENT\tB\tR\tK\tB\tN\tR\tQ\tN\n",
        &["01 d=K2"],
    );
    let out = convert("sllavcco", "pgn", &[], input.as_bytes());
    assert!(ok(&out, "fen wins").contains("1. Kd2 *"));
    assert!(
        stderr(&out).contains("-:2:1: warning[arrangement-mismatch]: game 1: ARRANGEMENT is not the position of the FEN tag: the FEN is used"),
        "{}",
        stderr(&out)
    );
    // The standard arrangement needs no FEN.
    let input = sheet("ARRANGEMENT\tR\tN\tB\tQ\tK\tB\tN\tR\n", &["01 e=4"]);
    let out = ok(
        &convert("sllavcco", "pgn", &[], input.as_bytes()),
        "standard",
    );
    assert!(out.contains("[Variant \"Chess960\"]\n\n1. e4 *"), "{out}");
    // A wrong arrangement is an error on its line.
    let input = sheet("WHITE\tA\nARRANGEMENT\tK\tR\tR\tB\tB\tN\tN\tQ\n", &[]);
    let out = convert("sllavcco", "pgn", &[], input.as_bytes());
    assert!(
        stderr(&out).contains("-:2:1: error: game 1: an arrangement is one king between two rooks"),
        "{}",
        stderr(&out)
    );
}

/// The first error line of converting a scoresheet to pgn.
fn error_of(input: &str, extra: &[&str]) -> String {
    let out = convert("sllavcco", "pgn", extra, input.as_bytes());
    no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{input}");
    let err = stderr(&out);
    assert!(errors_are_located(&err), "{err}");
    err.lines()
        .find(|l| l.contains(": error: "))
        .unwrap_or_else(|| panic!("no error for {input}: {err}"))
        .to_string()
}

#[test]
fn bad_cells_are_errors_naming_move_side_cell_and_position() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Line 4 is the first grid line; after `01` and five tabs, column 8 is
    // the cell of file e (column 6 on a Black line).
    let cases: Vec<(String, Vec<&str>, String)> = vec![
        (
            sheet("SCORE\t*\n", &["01 e=5"]),
            vec![],
            format!("-:4:8: error: game 1: move 1 (White), `5` in column e: illegal move (position: {start})"),
        ),
        (
            sheet("SCORE\t*\n", &["01 e=4", "- e=5", "02 c=Q3"]),
            vec![],
            "-:6:6: error: game 1: move 2 (White), `Q3` in column c: illegal move (position: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2)".to_string(),
        ),
        (
            sheet("FEN\t4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\n", &["01 d=N2"]),
            vec![],
            "-:4:7: error: game 1: move 1 (White), `N2` in column d: ambiguous: it can come from b1 or f3 (position: 4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1)".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 e=4", "- d=K e=R"]),
            vec![],
            "-:5:7: error: game 1: `K` in column d and `R` in column e: a line holds one move; only castling takes two cells".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 e=4", "- f=R g=K"]),
            vec![],
            "-:5:7: error: game 1: move 1 (Black), `R` `K` in columns f and g: castling is not legal here".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 c=T3"]),
            vec![],
            "-:4:6: error: game 1: `T3` in column c: `T` is not a piece letter of K Q R B N (or figurines)".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 c=Q3"]),
            vec!["--pieces", "de"],
            "-:4:6: error: game 1: `Q3` in column c: `Q` is not a piece letter of K D T L S (or figurines)".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 a=x3"]),
            vec![],
            "-:4:4: error: game 1: `x3` in column a: there is no file left of a".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 e=4 f=N3"]),
            vec![],
            "-:4:10: error: game 1: `4` in column e and `N3` in column f: a line holds one move".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 c=K"]),
            vec![],
            "-:4:6: error: game 1: `K` in column c: a lone king is no move".to_string(),
        ),
        (
            sheet("SCORE\t*\n", &["01 e=4", "- e=5", "03 f=N3"]),
            vec![],
            "-:6:1: error: game 1: move number 03 where 02 was expected".to_string(),
        ),
        (
            sheet(
                "FEN\t8/4pk2/8/3P4/8/8/8/4K3 b - - 0 1\n",
                &["01 e=4", "- e=5"],
            ),
            vec![],
            "-:4:8: error: game 1: the start position has Black to move: White's first line must be empty".to_string(),
        ),
    ];
    for (input, extra, expected) in &cases {
        let line = error_of(input, extra);
        assert!(
            line.starts_with(expected.as_str()),
            "got:  {line}\nwant: {expected}"
        );
    }
}

#[test]
fn syntax_errors_have_line_and_column() {
    let cases = [
        // A rank that does not exist: the cell ends too early.
        (sheet("SCORE\t*\n", &["01 c=Q9"]), "-:4:7: error: game 1: expected the end of the cell"),
        // Seven cells of files.
        (
            format!("SCORE\t*\n\n{HEADING}\n01\t\t\t\t\t4\t\t\n"),
            "-:4:11: error: game 1: expected a tab",
        ),
        // Nine cells of files.
        (
            format!("SCORE\t*\n\n{HEADING}\n01\t\t\t\t\t4\t\t\t\t\n"),
            "-:4:12: error: game 1: expected the end of the line",
        ),
        // Two White lines in a row.
        (
            sheet("SCORE\t*\n", &["01 e=4", "02 e=5"]),
            "-:5:1: error: game 1: expected the end of the game or Black's line (an empty first cell, then eight cells), found `02`",
        ),
        // No blank line before the grid.
        (
            format!("SCORE\t*\n{HEADING}\n"),
            "-:2:1: error: game 1: expected a blank line or a header field (FIELD, a tab, its value), found `NUMBER`",
        ),
        // A heading that is not the heading.
        (
            "SCORE\t*\n\nNUMBER OF THE MOVE\ta\tb\n".to_string(),
            "-:3:1: error: game 1: expected the grid heading",
        ),
    ];
    for (input, expected) in &cases {
        let line = error_of(input, &[]);
        assert!(line.starts_with(expected), "got:  {line}\nwant: {expected}");
    }
}

#[test]
fn a_bad_game_among_good_ones_is_skipped_with_its_position_in_the_file() {
    let good = sheet("WHITE\tA\n", &["01 e=4"]);
    let bad = sheet("WHITE\tB\n", &["01 e=4", "- e=4"]);
    let input = format!("{good}\n{bad}\n{good}");
    let out = convert("sllavcco", "pgn", &[], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(counts(&out), (2, 1));
    // The bad game's Black line is line 10 of the file.
    assert!(
        stderr(&out)
            .contains("-:10:6: error: game 2: move 1 (Black), `4` in column e: illegal move"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn pieces_must_be_a_language_or_five_letters() {
    for bad in ["xx", "KQRB", "KQRBB", "KQRBa", "KQRB1"] {
        let out = convert("pgn", "sllavcco", &["--pieces", bad], b"1. e4 *\n");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("--pieces"), "{bad}: {}", stderr(&out));
    }
}

#[test]
fn html_is_one_printable_page_with_one_section_per_game() {
    let input = "[Event \"Simul <Belgrade>\"]\n[White \"Petrosjan & co\"]\n[Black \"Sllavcco\"]\n[Result \"1-0\"]\n[Date \"1970.04.07\"]\n[ECO \"C50\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[White \"B\"]\n\n1. d4 d5 *\n";
    let out = convert("pgn", "sllavcco-html", &[], input.as_bytes());
    let html = ok(&out, "html");
    assert!(
        html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">")
    );
    assert!(html.ends_with("</body>\n</html>\n"));
    assert_eq!(
        html.matches("<section class=\"sheet\" data-title=").count(),
        2
    );
    assert_eq!(html.matches("</section>").count(), 2);
    assert!(
        html.contains(
            "<title>Petrosjan &amp; co - Sllavcco, Simul &lt;Belgrade&gt;, 1970.04.07</title>"
        ),
        "{html}"
    );
    assert!(
        html.contains("<td colspan=\"7\" class=\"tournament\">Simul &lt;Belgrade&gt;</td>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<tr><th>WHITE</th><td class=\"name\">Petrosjan &amp; co</td><td></td><td></td><td colspan=\"4\"></td></tr>"
        ),
        "{html}"
    );
    assert!(html.contains("<th>DATE</th><td>07.04.1970</td>"), "{html}");
    assert!(
        html.contains("<th>SCORE</th><td class=\"score\">1</td><td class=\"colon\">:</td><td class=\"score\">0</td>"),
        "{html}"
    );
    // A tag with no field on the form: in the note under the sheet.
    assert!(
        html.contains("<p class=\"note\"><span>ECO: C50</span></p>"),
        "{html}"
    );
    assert!(!html.contains("<Belgrade>") && !html.contains("& co"));
    // Figurines by default, White's and Black's; the grid goes on to 30
    // moves in the first block, 60 in the second.
    assert!(html.contains("<tr class=\"white\"><th rowspan=\"2\">01</th><td></td><td></td><td></td><td></td><td>4</td>"), "{html}");
    assert!(html.contains("<tr class=\"white\"><th rowspan=\"2\">02</th><td></td><td></td><td></td><td></td><td></td><td><span class=\"fw\">♘</span>3</td>"), "{html}");
    assert!(html.contains(">30</th>") && html.contains(">60</th>") && !html.contains(">61</th>"));
    let html = ok(
        &convert(
            "pgn",
            "sllavcco-html",
            &["--pieces", "en"],
            input.as_bytes(),
        ),
        "html en",
    );
    assert!(
        html.contains("<td>N3</td>") && !html.contains('♘'),
        "{html}"
    );
    // No game: still a whole page.
    let html = ok(&convert("pgn", "sllavcco-html", &[], b""), "empty");
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
}

#[test]
fn formats_lists_both_sllavcco_formats() {
    let out = kifu(&["formats"], b"");
    let text = stdout(&out);
    for (name, ext, rw) in [
        ("sllavcco", ".sllavcco", "rw"),
        ("sllavcco-html", ".html", "-w"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing: {text}"));
        assert!(
            line.contains(ext) && line.contains(&format!(" {rw} ")),
            "{line}"
        );
    }
}

#[test]
fn no_validate_reads_cells_as_written_and_says_so() {
    // White's king to e3 on move 2 is illegal: replayed it fails; by syntax
    // it converts as written, check mark and capture included.
    let text = sheet(
        ROSTER_SHEET,
        &[
            "01 e=4",
            "- e=5",
            "02 e=K3",
            "- c=N6+",
            "03 f=R g=K",
            "- d=4x",
        ],
    );
    let out = convert("sllavcco", "pgn", &[], text.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = convert("sllavcco", "pgn", &["--no-validate"], text.as_bytes());
    no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. e4 e5 2. Ke3 Nc6+ 3. O-O exd4 *"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("moves not replayed (--no-validate)"),
        "{}",
        stderr(&out)
    );
    // And a legal game reads the same with and without the rules.
    let game = sheet(ROSTER_SHEET, CASES[0].rows);
    let checked = convert("sllavcco", "pgn", &[], game.as_bytes());
    let unchecked = convert("sllavcco", "pgn", &["--no-validate"], game.as_bytes());
    assert_eq!(ok(&checked, "checked"), ok(&unchecked, "unchecked"));
}

#[test]
fn a_tag_named_arrangement_is_refused() {
    // Written as a header field it would be read back as the field itself,
    // and fail there.
    let out = convert(
        "pgn",
        "sllavcco",
        &[],
        b"[ARRANGEMENT \"foo\"]\n\n1. e4 e5 *\n",
    );
    no_panic(&out);
    assert_eq!(counts(&out), (0, 1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("tag name `ARRANGEMENT` cannot be written as a header field"),
        "{}",
        stderr(&out)
    );
}
