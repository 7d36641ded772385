//! Every family reads what its world writes, second round (issue 35): each
//! class of damage below is generated in many forms over the clean games of
//! `world.rs` (chess, draughts, tafl: every PGN-style container reader) and
//! must read as the clean games do, with the warning of its kind; then the
//! same classes through the binary, as a person meets them; then the JSON
//! of pgn-extract and lichess.

use crate::common;
use crate::world::{clean, clean_games, convert_all, gaps, insert_at, moves_only, GAMES};

use proptest::prelude::*;

use common::*;

/// The lines of a text, each with its line end.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The movetext of each game of a family, without its result.
fn movetexts(family: usize) -> Vec<String> {
    GAMES[family]
        .1
        .iter()
        .map(|g| {
            let body = &g[g.find("\n\n").map_or(0, |i| i + 2)..];
            let mut tokens: Vec<&str> = body.split_whitespace().collect();
            tokens.pop();
            tokens.join(" ")
        })
        .collect()
}

/// The first `moves` moves of a movetext (numbers kept, comments dropped).
fn first_moves(movetext: &str, moves: usize) -> String {
    let mut out = Vec::new();
    let mut n = 0;
    for t in movetext.split_whitespace() {
        if t.starts_with('{') || t.ends_with('}') {
            continue;
        }
        let number = t.ends_with('.') && t[..t.len() - 1].bytes().all(|b| b.is_ascii_digit());
        if !number {
            if n == moves {
                break;
            }
            n += 1;
        }
        out.push(t);
    }
    // Not ending with a bare number.
    while out.last().is_some_and(|t| t.ends_with('.')) {
        out.pop();
    }
    out.join(" ")
}

/// Piece letters of other languages, each with what it names in English.
const LANGUAGES: &[&[(char, char)]] = &[
    // German
    &[('K', 'K'), ('D', 'Q'), ('T', 'R'), ('L', 'B'), ('S', 'N')],
    // Dutch
    &[('K', 'K'), ('D', 'Q'), ('T', 'R'), ('L', 'B'), ('P', 'N')],
    // French
    &[('R', 'K'), ('D', 'Q'), ('T', 'R'), ('F', 'B'), ('C', 'N')],
    // Spanish, Italian
    &[('R', 'K'), ('D', 'Q'), ('T', 'R'), ('A', 'B'), ('C', 'N')],
];

/// The movetext of a text with each character outside tag lines and
/// comments mapped by `f`.
fn map_movetext(text: &str, mut f: impl FnMut(usize, char) -> String) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for (k, line) in lines(text).into_iter().enumerate() {
        if line.starts_with('[') {
            out.push_str(line);
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ => {}
            }
            if in_comment || c == '}' {
                out.push(c);
            } else {
                out.push_str(&f(k, c));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Tag lines that lost their `[`, or whose `[` stands alone on the line
    /// before: the same games, with a tag-repair warning each.
    #[test]
    fn tag_lines_without_their_bracket_are_tags(
        family in 0..GAMES.len(),
        picks in proptest::collection::vec((any::<usize>(), any::<bool>()), 1..4),
    ) {
        let text = clean(family);
        let mut ls: Vec<String> = lines(&text).into_iter().map(str::to_string).collect();
        let tag_lines: Vec<usize> = (0..ls.len()).filter(|&i| ls[i].starts_with('[')).collect();
        for &(k, split) in &picks {
            let i = tag_lines[k % tag_lines.len()];
            if !ls[i].starts_with('[') {
                continue;
            }
            let rest = ls[i][1..].to_string();
            ls[i] = if split { format!("[\n{rest}") } else { rest };
        }
        let damaged = ls.concat();
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        prop_assert!(!kinds.is_empty() && kinds.iter().all(|&k| k == "tag-repair"), "{:?}", kinds);
    }

    /// Tagless games without results, a blank line apart: each `1.` after a
    /// blank line starts a game of its own.
    #[test]
    fn headerless_games_without_results_split_at_move_one(
        family in 0..GAMES.len(),
        games in proptest::collection::vec((any::<usize>(), 1usize..8), 2..5),
    ) {
        let texts = movetexts(family);
        let wanted: Vec<String> = games
            .iter()
            .map(|&(k, n)| first_moves(&texts[k % texts.len()], n))
            .collect();
        let input = wanted.join("\n\n") + "\n";
        let (got, failed, kinds) = convert_all(GAMES[family].0, input.as_bytes());
        prop_assert_eq!(failed, 0, "{}", input);
        // (A draughts or tafl game without the tag that names its board
        // says the board it took.)
        prop_assert!(kinds.iter().all(|&k| matches!(k, "board-inferred" | "board-assumed")), "{:?}", kinds);
        prop_assert_eq!(got.len(), wanted.len(), "{}", input);
        for (g, w) in got.iter().zip(&wanted) {
            // (tafl writes its squares in capitals.)
            let got = moves_only(g).to_lowercase();
            prop_assert_eq!(got.trim_end_matches(" *"), moves_only(w).to_lowercase(), "{}", input);
        }
    }

    /// A move number that does not follow the moves before it: read by the
    /// moves' order, one counted warning a game.
    #[test]
    fn move_numbers_that_do_not_follow_are_said(
        family in 0..GAMES.len(),
        picks in proptest::collection::vec((any::<usize>(), 2u32..60), 1..4),
    ) {
        let text = clean(family);
        // The offsets of move numbers past 1 (`2.`, `3.`).
        let mut numbers: Vec<(usize, usize)> = Vec::new();
        let b = text.as_bytes();
        for i in 1..b.len() {
            if b[i - 1] == b' ' && b[i].is_ascii_digit() {
                let end = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                if b.get(end) == Some(&b'.') && b.get(end + 1) == Some(&b' ') {
                    numbers.push((i, end));
                }
            }
        }
        // Each chosen number made one that cannot follow (past 100).
        let mut chosen: Vec<(usize, usize, u32)> = Vec::new();
        for &(k, to) in &picks {
            let (i, end) = numbers[k % numbers.len()];
            if !chosen.iter().any(|c| c.0 == i) {
                chosen.push((i, end, to + 100));
            }
        }
        chosen.sort_by_key(|c| std::cmp::Reverse(c.0));
        let mut damaged = text.clone();
        for (i, end, to) in chosen {
            damaged.replace_range(i..end, &to.to_string());
        }
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        prop_assert!(!kinds.is_empty() && kinds.iter().all(|&k| k == "move-number"), "{:?}", kinds);
        // One a game at most.
        prop_assert!(kinds.len() <= GAMES[family].1.len());
    }

    /// A NAG or glyph before the first move: kept as a comment, the game
    /// read.
    #[test]
    fn annotations_before_the_first_move_are_kept(
        family in 0..GAMES.len(),
        annotation in proptest::sample::select(vec!["$22", "$1", "$140", "!", "?!", "!!"]),
        with_comment in any::<bool>(),
    ) {
        let comment = if with_comment { " {White has the initiative}" } else { "" };
        let damaged = clean(family).replace("\n\n1.", &format!("\n\n{annotation}{comment} 1."));
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        let clean = clean_games(family);
        prop_assert_eq!(games.len(), clean.len());
        for (g, c) in games.iter().zip(&clean) {
            prop_assert_eq!(moves_only(g), moves_only(c));
            let kept = format!("{{{annotation}}}");
            prop_assert!(g.contains(&kept), "{}", g);
        }
        prop_assert!(kinds.iter().all(|&k| k == "annotation-before-move"), "{:?}", kinds);
        prop_assert_eq!(kinds.len(), clean.len());
    }

    /// Text before the first tag that holds no move: no game, said.
    #[test]
    fn text_before_the_first_tag_is_no_game(
        family in 0..GAMES.len(),
        words in proptest::collection::vec(proptest::sample::select(vec![
            "Downloaded", "from", "the", "club", "site", "Games", "of", "round", "one", "PGN", "archive:", "www.example.org",
        ]), 1..8),
        lines_before in 1usize..3,
    ) {
        let text_line = words.join(" ");
        let preface = std::iter::repeat_n(text_line.as_str(), lines_before).collect::<Vec<_>>().join("\n");
        let damaged = format!("{preface}\n{}", clean(family));
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        prop_assert_eq!(kinds, vec!["stray-comments"]);
    }

    /// HTML where a PGN pasted from a page has it: line breaks,
    /// paragraphs and blocks, non-breaking spaces, at line ends (tag lines
    /// too), around every line (`<p>[Event "x"]</p>`), between tokens.
    #[test]
    fn html_line_breaks_read_as_blanks(
        family in 0..GAMES.len(),
        tag in proptest::sample::select(vec![
            "<br />", "<br/>", "<br>", "<BR>", "</br>", "<br  />", "<p>", "</p>", "<P>",
            "<div class=\"pgn\">", "</div>", "&nbsp;", "&#160;", "&NBSP;", "&#xA0;",
        ]),
        place in 0..3,
        picks in proptest::collection::vec(any::<usize>(), 1..5),
    ) {
        let text = clean(family);
        let at_line_ends = place > 0;
        let damaged = if place == 1 {
            text.replace('\n', &format!("{tag}\n"))
        } else if place == 2 {
            // Every line that holds text in a paragraph of its own.
            text.lines()
                .map(|l| if l.trim().is_empty() { l.to_string() } else { format!("<p>{l}{tag}") })
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            let picks: Vec<(usize, String)> = picks.into_iter().map(|k| (k, tag.to_string())).collect();
            insert_at(&text, &gaps(&text), &picks)
        };
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        // (None said when every one stands between games: blanks there.)
        prop_assert!(kinds.iter().all(|&k| k == "html-break"), "{:?}", kinds);
        prop_assert!(!at_line_ends || !kinds.is_empty());
    }

    /// Chess in another language's piece letters: read as English ones.
    #[test]
    fn localized_piece_letters_read_as_english(language in 0..LANGUAGES.len()) {
        let set = LANGUAGES[language];
        let damaged = map_movetext(&clean(0), |_, c| {
            set.iter()
                .find(|&&(_, en)| en == c)
                .map_or(c, |&(local, _)| local)
                .to_string()
        });
        let (games, failed, kinds) = convert_all("pgn", damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(0), "{}", damaged);
        prop_assert!(kinds.iter().all(|&k| k == "localized-pieces"), "{:?}", kinds);
        prop_assert_eq!(kinds.len(), GAMES[0].1.len());
    }

    /// A capture mark on a move that captures nothing, and castling in
    /// lower case: read, and said once a kind and game.
    #[test]
    fn false_capture_marks_and_lower_case_castling_are_said(
        marks in proptest::collection::vec(any::<bool>(), 1..30),
        lower in any::<bool>(),
    ) {
        let text = clean(0);
        let mut k = 0;
        let mut marked = 0;
        // Piece moves to an empty square (`Nf3`): `Nxf3`.
        let tokens: Vec<String> = text
            .split(' ')
            .map(|t| {
                let b = t.as_bytes();
                let piece = b.len() == 3 && b"KQRBN".contains(&b[0]) && b[1].is_ascii_lowercase();
                if piece {
                    k += 1;
                    if marks[k % marks.len()] {
                        marked += 1;
                        return format!("{}x{}", &t[..1], &t[1..]);
                    }
                }
                if lower && t.starts_with("O-O") {
                    return t.replace('O', "o");
                }
                t.to_string()
            })
            .collect();
        let damaged = tokens.join(" ");
        let (games, failed, kinds) = convert_all("pgn", damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(0), "{}", damaged);
        let captures = kinds.iter().filter(|&&k| k == "capture-mark").count();
        let castles = kinds.iter().filter(|&&k| k == "lower-case-castling").count();
        prop_assert_eq!(captures > 0, marked > 0);
        prop_assert!(captures <= GAMES[0].1.len());
        prop_assert_eq!(castles > 0, lower);
        prop_assert_eq!(kinds.len(), captures + castles, "{:?}", kinds);
    }
}

/// Each class through the binary, as a person meets it: the games kept,
/// exit 0, the warning of its kind.
#[test]
fn damaged_records_convert_with_their_warnings() {
    let cases: &[(&str, &str, (usize, usize), &str)] = &[
        (
            "Event \"Veteranen-Cup\"]\n[Site \"X\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n",
            "[Event \"Veteranen-Cup\"]",
            (2, 0),
            "tag-repair",
        ),
        (
            "[\nEvent \"x\"]\n[Site \"X\"]\n\n1. e4 e5 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n",
            "[Event \"x\"]\n[Site \"X\"]",
            (2, 0),
            "tag-repair",
        ),
        ("1. e4 e5\n\n1. d4 d5\n", "1. d4 d5 *", (2, 0), ""),
        ("1. e4 e5 3. Nf3 Nc6 *\n", "2. Nf3 Nc6", (1, 0), "move-number"),
        (
            "[Event \"x\"]\n\n$22 {A game of ideas} 1. e4 e5 *\n",
            "{$22} {A game of ideas} 1. e4",
            (1, 0),
            "annotation-before-move",
        ),
        (
            "Some text here\n[Event \"x\"]\n\n1. e4 e5 *\n",
            "[Event \"x\"]",
            (1, 0),
            "stray-comments",
        ),
        // The same text at the input's end, and move numbers alone there:
        // no game, as before a tag.
        (
            "[Event \"x\"]\n\n1. e4 e5 *\n\nSome text here\n",
            "1. e4 e5 *",
            (1, 0),
            "stray-comments",
        ),
        (
            "[Event \"x\"]\n\n1. e4 e5 *\n\n1.\n\n2.\n",
            "1. e4 e5 *",
            (1, 0),
            "stray-comments",
        ),
        (
            "[Event \"x\"]<br />\n[Site \"y\"]<br />\n<br />\n1. e4 e5 2. Nf3 Nc6<br />\n3. Bb5 *\n",
            "3. Bb5 *",
            (1, 0),
            "html-break",
        ),
        (
            "[Event \"x\"]\n\n1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. O-O Le7 6. Te1 b5 7. Lb3 d6 8. c3 O-O 9. h3 Sb8 10. d4 Sbd7 11. Dd3 *\n",
            "11. Qd3 *",
            (1, 0),
            "localized-pieces",
        ),
        (
            "[Event \"x\"]\n\n1. e4 e5 2. Nxf3 Nc6 3. Bc4 Bc5 4. o-o Nf6 *\n",
            "4. O-O Nf6",
            (1, 0),
            "capture-mark",
        ),
        (
            "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. o-o Nf6 *\n",
            "4. O-O Nf6",
            (1, 0),
            "lower-case-castling",
        ),
    ];
    for &(input, want, count, kind) in cases {
        let out = convert("pgn", "pgn", &[], input.as_bytes());
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(counts(&out), count, "{input}: {err}");
        assert_eq!(out.status.code(), Some(0), "{input}: {err}");
        assert!(stdout(&out).contains(want), "{input}: {}", stdout(&out));
        if kind.is_empty() {
            assert!(!err.contains("warning"), "{input}: {err}");
        } else {
            assert!(err.contains(&format!("warning[{kind}]")), "{input}: {err}");
        }
    }
    // A missing check sign stays quiet.
    let out = convert(
        "pgn",
        "pgn",
        &[],
        b"1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 *\n",
    );
    assert_eq!(counts(&out), (1, 0));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(stdout(&out).contains("4. Qxf7#"), "{}", stdout(&out));
}

/// The same damage in the other container notations' readers: a tag line
/// without its `[`, HTML breaks, an annotation before the first move.
#[test]
fn every_container_reader_mends_the_same_damage() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "draughts-num",
            "Event \"A\"]\n[GameType \"20\"]\n\n$1 1. 32-28 19-23<br />\n2. 28x19 14x23 *\n",
            "2. 28x19 14x23",
        ),
        (
            "tafl",
            "Event \"A\"]\n[Rules \"brandubh\"]\n\n$1 1. d2-e2 c4-c5<br />\n2. f4-f5 c5-a5 *\n",
            "2. f4-f5 c5-a5",
        ),
    ];
    for &(format, input, want) in cases {
        let out = convert(format, format, &[], input.as_bytes());
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(counts(&out), (1, 0), "{format}: {err}");
        // (tafl writes its squares in capitals.)
        assert!(
            stdout(&out).to_lowercase().contains(&want.to_lowercase()),
            "{format}: {}",
            stdout(&out)
        );
        for kind in ["tag-repair", "html-break", "annotation-before-move"] {
            assert!(err.contains(&format!("warning[{kind}]")), "{format}: {err}");
        }
    }
}

/// A game of GAMES (chess) as pgn-extract's `--json` writes it: the tags as
/// fields, then `Moves`.
fn pgn_extract_json(game: &str, extra: &[(String, String)]) -> String {
    let (head, body) = game.split_once("\n\n").expect("tags and movetext");
    let mut fields: Vec<String> = head
        .lines()
        .map(|l| {
            let l = l.trim_start_matches('[').trim_end_matches(']');
            let (name, value) = l.split_once(' ').expect("a tag");
            format!("\"{name}\" : {value},")
        })
        .collect();
    for (name, value) in extra {
        fields.push(format!(
            "\"{name}\" : {},",
            serde_json::to_string(value).expect("a string")
        ));
    }
    let moves: Vec<String> = body
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !t.starts_with('{') && !t.ends_with('}'))
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(|m| format!("{{ \"move\" : \"{m}\" }}"))
        .collect();
    format!(
        "{{\n{}\n\n\"Moves\":[{}]\n\n}}",
        fields.join("\n"),
        moves.join(", ")
    )
}

/// The moves of a game's movetext (no numbers, comments or result).
fn sans(game: &str) -> Vec<String> {
    let body = game.split_once("\n\n").map_or(game, |(_, b)| b);
    moves_only(body)
        .split_whitespace()
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(str::to_string)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// pgn-extract's JSON, any of the chess games with more tags (values
    /// with quotes and backslashes): the same moves and result, every tag.
    #[test]
    fn pgn_extract_json_reads_as_its_pgn(
        games in proptest::collection::vec(0..4usize, 1..4),
        extra in proptest::collection::vec(
            (proptest::sample::select(vec!["Annotator", "WhiteElo", "ECO", "Opening", "PlyCount"]), "[ -~]{0,12}"),
            0..3,
        ),
    ) {
        let extra: Vec<(String, String)> = extra.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        let json = format!(
            "[\n{}\n]\n",
            games.iter().map(|&g| pgn_extract_json(GAMES[0].1[g], &extra)).collect::<Vec<_>>().join(",\n")
        );
        let (got, failed, kinds) = convert_all("json", json.as_bytes());
        prop_assert_eq!(failed, 0, "{}", json);
        prop_assert!(kinds.is_empty(), "{:?}", kinds);
        prop_assert_eq!(got.len(), games.len());
        let f = kifu::format::by_name("pgn").expect("pgn");
        for (out, &g) in got.iter().zip(&games) {
            // Written back as JSON by kifu; read as PGN it is the clean game.
            let parsed = kifu::archive::read_record(
                kifu::format::by_name("json").expect("json"),
                &kifu::codec::ReadOptions::default(),
                out.as_bytes(),
            ).expect("kifu's JSON");
            let mut pgn = String::new();
            (f.write.expect("a writer"))(&parsed.game, &kifu::codec::WriteOptions::default(), &mut pgn).expect("written");
            prop_assert_eq!(sans(&pgn), sans(GAMES[0].1[g]), "{}", pgn);
            let result = GAMES[0].1[g].split_whitespace().last().expect("a result");
            prop_assert!(pgn.trim_end().ends_with(result), "{}", pgn);
            for (name, value) in &extra {
                prop_assert!(parsed.game.tags.iter().any(|t| &t.name == name && &t.value == value), "{} {:?}", pgn, parsed.game.tags);
            }
        }
    }

    /// lichess's export, NDJSON: the tags lichess's PGN export gives.
    #[test]
    fn lichess_export_reads_with_lichess_tags(
        game in 0..4usize,
        rated in any::<bool>(),
        perf in proptest::sample::select(vec![("blitz", "Blitz"), ("bullet", "Bullet"), ("ultraBullet", "UltraBullet"), ("classical", "Classical")]),
        ratings in (600i64..3000, 600i64..3000, -30i64..30),
        winner in proptest::sample::select(vec![Some("white"), Some("black"), None]),
        clocks in any::<bool>(),
        title in proptest::option::of(proptest::sample::select(vec!["GM", "IM", "BOT"])),
    ) {
        let pgn = GAMES[0].1[game];
        let moves = sans(pgn);
        let clock_list: Vec<i64> = (0..moves.len() as i64).map(|i| 18_000 - 150 * i).collect();
        let status = if winner.is_some() { "resign" } else { "draw" };
        let mut record = serde_json::json!({
            "id": "AbCd1234",
            "rated": rated,
            "variant": "standard",
            "speed": perf.0,
            "perf": perf.0,
            "createdAt": 1_514_505_150_384i64,
            "status": status,
            "players": {
                "white": {"user": {"name": "Alice", "id": "alice"}, "rating": ratings.0, "ratingDiff": ratings.2},
                "black": {"user": {"name": "Bob", "id": "bob"}, "rating": ratings.1, "ratingDiff": -ratings.2},
            },
            "opening": {"eco": "C60", "name": "Ruy Lopez", "ply": 5},
            "moves": moves.join(" "),
            "clock": {"initial": 180, "increment": 2, "totalTime": 260},
        });
        if let Some(w) = winner {
            record["winner"] = serde_json::json!(w);
        }
        if clocks {
            record["clocks"] = serde_json::json!(clock_list);
        }
        if let Some(t) = title {
            record["players"]["white"]["user"]["title"] = serde_json::json!(t);
        }
        let line = serde_json::to_string(&record).expect("JSON") + "\n";
        let out = convert("jsonl", "pgn", &[], line.as_bytes());
        no_panic(&out);
        prop_assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
        let text = stdout(&out);
        let result = match winner { Some("white") => "1-0", Some(_) => "0-1", None => "1/2-1/2" };
        let rated = if rated { "Rated" } else { "Casual" };
        let diff = |d: i64| if d >= 0 { format!("+{d}") } else { d.to_string() };
        let mut want = vec![
            format!("[Event \"{rated} {} game\"]", perf.1),
            "[Site \"https://lichess.org/AbCd1234\"]".to_string(),
            "[Date \"2017.12.28\"]".to_string(),
            "[Round \"-\"]".to_string(),
            "[White \"Alice\"]".to_string(),
            "[Black \"Bob\"]".to_string(),
            format!("[Result \"{result}\"]"),
            "[UTCTime \"23:52:30\"]".to_string(),
            format!("[WhiteElo \"{}\"]", ratings.0),
            format!("[WhiteRatingDiff \"{}\"]", diff(ratings.2)),
            format!("[BlackRatingDiff \"{}\"]", diff(-ratings.2)),
            "[Variant \"Standard\"]".to_string(),
            "[TimeControl \"180+2\"]".to_string(),
            "[ECO \"C60\"]".to_string(),
            "[Opening \"Ruy Lopez\"]".to_string(),
            "[Termination \"Normal\"]".to_string(),
        ];
        if let Some(t) = title {
            want.push(format!("[WhiteTitle \"{t}\"]"));
        }
        if clocks {
            want.push("[%clk 0:03:00]".to_string());
        }
        for w in &want {
            prop_assert!(text.contains(w.as_str()), "{} in {}", w, text);
        }
        prop_assert_eq!(sans(&text), moves);
        prop_assert!(text.trim_end().ends_with(result), "{}", text);
    }
}

/// The peers' JSON through the binary: a pgn-extract file, a lichess
/// NDJSON export and one lichess game as a JSON object, each read by its
/// content; an illegal move in one names its tool.
#[test]
fn the_peers_json_converts() {
    let pe = "[\n{\n\"Event\" : \"Casual Game\",\n\"Site\" : \"Berlin GER\",\n\"Result\" : \"0-1\",\n\n\"Moves\":[{ \"move\" : \"f3\" }, { \"move\" : \"e5\", \"nags\" : [\"$1\"] }, { \"move\" : \"g4\" }, { \"move\" : \"Qh4#\" }]\n\n}\n]\n";
    let out = convert("json", "pgn", &[], pe.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("[Event \"Casual Game\"]\n[Site \"Berlin GER\"]"),
        "{text}"
    );
    assert!(text.contains("1. f3 e5 $1 2. g4 Qh4# 0-1"), "{text}");

    let li = "{\"id\":\"q7ZvsdUF\",\"rated\":true,\"variant\":\"standard\",\"speed\":\"blitz\",\"perf\":\"blitz\",\"createdAt\":1514505150384,\"status\":\"mate\",\"winner\":\"black\",\"players\":{\"white\":{\"aiLevel\":3},\"black\":{\"user\":{\"name\":\"Lance5500\",\"title\":\"LM\",\"id\":\"lance5500\"},\"rating\":2389,\"ratingDiff\":4}},\"moves\":\"f3 e5 g4 Qh4#\",\"clock\":{\"initial\":180,\"increment\":0,\"totalTime\":180}}\n";
    for format in ["jsonl", "json"] {
        let out = convert(format, "pgn", &[], li.as_bytes());
        assert_eq!(counts(&out), (1, 0), "{format}: {}", stderr(&out));
        let text = stdout(&out);
        for want in [
            "[Event \"Rated Blitz game\"]",
            "[White \"lichess AI level 3\"]",
            "[WhiteElo \"?\"]",
            "[BlackTitle \"LM\"]",
            "[BlackRatingDiff \"+4\"]",
            "[TimeControl \"180+0\"]",
            "[ECO \"?\"]",
            "1. f3 e5 2. g4 Qh4# 0-1",
        ] {
            assert!(text.contains(want), "{format}: {want} in {text}");
        }
    }
    // A file named .json is read by its content too.
    let dir = scratch("world_again", "peers_json");
    let path = dir.join("lichess.json");
    std::fs::write(&path, li).expect("written");
    let out = kifu(
        &["convert", path.to_str().expect("a path"), "--to", "pgn"],
        b"",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    // An illegal move fails its game, and the error names the tool.
    let bad = li.replace("Qh4#", "Qh5#");
    let out = convert("jsonl", "pgn", &[], bad.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("lichess's game export"),
        "{}",
        stderr(&out)
    );
    // kifu's own JSON is read as before, and a record of neither shape
    // keeps kifu's error.
    let out = convert("jsonl", "pgn", &[], b"{\"moves\": 3}\n");
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("invalid game JSON"),
        "{}",
        stderr(&out)
    );
}

/// A tag split across lines inside its value (a mail program wraps a long
/// tag line at a blank: `[Event "Veteranen` then `Cup 2024"]`) or after its
/// name (`[Event` then `"Cup of 2024"]`, the value of several words), in
/// every container reader, at every tag of the file (the first of the
/// file, the first of a game after another, the last before the
/// movetext), the line end LF or CRLF, the rest indented or not: read as
/// the tag (a line end in the value as a blank), the game kept, no phantom
/// game, one tag-repair warning a tag. Not one: a value left open whose
/// next line is a tag (a tag cut short, the next tag its own).
#[test]
fn tags_split_across_lines_are_tags() {
    let mut members = 0;
    for (family, &(format, _)) in GAMES.iter().enumerate() {
        // Every Event made two words, so that a line break can stand for
        // its blank, and a Site of two words the last tag of each game.
        let clean_text = clean(family);
        let clean_lines = lines(&clean_text);
        let text: String = clean_lines
            .iter()
            .enumerate()
            .map(|(i, l)| match l.strip_suffix("\"]\n") {
                Some(head) if l.starts_with("[Event ") => format!("{head} of {family}\"]\n"),
                _ if *l == "\n" && !clean_lines[i - 1].starts_with('[') => l.to_string(),
                _ if *l == "\n" => format!("[Site \"Club of {family}\"]\n\n"),
                _ => l.to_string(),
            })
            .collect();
        let (want, failed, kinds) = convert_all(format, text.as_bytes());
        assert_eq!((failed, kinds.len()), (0, 0), "{text}");
        assert_eq!(text.matches("[Site ").count(), want.len(), "{text}");
        let tag_lines: Vec<usize> = lines(&text)
            .iter()
            .enumerate()
            .filter(|(_, l)| l.contains(" of "))
            .map(|(i, _)| i)
            .collect();
        for &i in &tag_lines {
            for (eol, indent) in [("\n", ""), ("\r\n", ""), ("\n", "    "), ("\r\n", "\t")] {
                // Inside the value, or after the name (the value's words
                // on the next line).
                // Inside the value, after the name (the value's words on
                // the next line), or in three places at once (`[Event`,
                // `"Cup`, `of 0"`, `]`).
                for place in 0..3 {
                    let mut ls: Vec<String> =
                        lines(&text).into_iter().map(str::to_string).collect();
                    let line = ls[i].clone();
                    let name = line.find(' ').expect("a name");
                    let word = line.rfind(" of ").expect("two words");
                    let close = line.rfind(']').expect("a tag");
                    let cut = |at: usize| format!("{eol}{indent}{}", &line[at + 1..]);
                    ls[i] = match place {
                        0 => format!("{}{}", &line[..word], cut(word)),
                        1 => format!("{}{}", &line[..name], cut(name)),
                        _ => format!(
                            "{}{eol}{indent}{}{eol}{indent}{}{eol}]\n",
                            &line[..name],
                            &line[name + 1..word],
                            &line[word + 1..close],
                        ),
                    };
                    let damaged = ls.concat();
                    let (games, failed, kinds) = convert_all(format, damaged.as_bytes());
                    assert_eq!(failed, 0, "{damaged}");
                    assert_eq!(games, want, "{damaged}");
                    assert_eq!(kinds, ["tag-repair"], "{damaged}");
                    members += 1;
                }
            }
        }
        // Two at once, through the binary: counted once each, nothing lost.
        let mut ls: Vec<String> = lines(&text).into_iter().map(str::to_string).collect();
        for &i in [tag_lines[0], *tag_lines.last().unwrap()].iter() {
            let at = ls[i].rfind(" of ").unwrap();
            ls[i] = format!("{}\n{}", &ls[i][..at], &ls[i][at + 1..]);
        }
        let out = convert(format, format, &[], ls.concat().as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (want.len(), 0), "{}", stderr(&out));
        let clean_out = convert(format, format, &[], text.as_bytes());
        assert_eq!(stdout(&out), stdout(&clean_out), "{format}");
        assert!(
            stderr(&out).contains("warning[tag-repair]")
                && stderr(&out).contains("(1 more like this)"),
            "{}",
            stderr(&out)
        );
        // Not a split value: the next line is a tag. The tag cut short is
        // read as far as it goes, and the next is a tag of its own.
        let open = match text.find("\"]\n[") {
            Some(k) => format!("{}\n{}", &text[..k], &text[k + 3..]),
            None => continue,
        };
        let (games, failed, kinds) = convert_all(format, open.as_bytes());
        assert_eq!((games.len(), failed), (want.len(), 0), "{open}");
        assert_eq!(kinds, ["tag-repair"], "{open}");
    }
    assert!(members >= 100, "{members}");
    // Many in one input, read in batches by the binary (a split tag at
    // every place of a batch's end): every game kept, one warning each.
    let n = 20_000;
    let big: String = (0..n)
        .map(|i| {
            let tag = match i % 3 {
                0 => format!("[Event\n\"Cup of {i}\"]"),
                1 => format!("[Event \"Cup\r\nof {i}\"]"),
                _ => format!("[Event\n  \"Cup\n  of {i}\"\n]"),
            };
            format!("{tag}\n[GameType \"20\"]\n[Site \"S\"]\n\n1. 32-28 19-23 *\n\n")
        })
        .collect();
    let out = convert("draughts-num", "draughts-num", &[], big.as_bytes());
    no_panic(&out);
    assert_eq!(counts(&out), (n, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out).matches("[Event \"Cup of ").count(), n);
    assert!(
        stderr(&out).contains(&format!("({} more like this)", n - 1)),
        "{}",
        stderr(&out)
    );
}

/// Annotations a game's main line may start with, for every family, and
/// the chess reader's line comments and escape lines.
const OPENERS: &[&str] = &["{Game two}", "$10", "{a} $1", "!", "{x}\n{y}"];
const CHESS_OPENERS: &[&str] = &["; a line comment\n", "%escape line\n", "{c} ; d\n"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Tagless games a blank line apart whose `1.` comes after annotations
    /// (`{Game two} 1. d4`): the annotations start the next game, which
    /// keeps them; with several blank lines and CRLF line ends. Negative
    /// members: the same annotations after a blank line before a move
    /// number that follows (`2... Nc6`) stay in their game.
    #[test]
    fn annotations_after_the_blank_line_start_the_next_game(
        family in 0..GAMES.len(),
        games in proptest::collection::vec((any::<usize>(), 1usize..8, any::<usize>()), 2..5),
        blanks in 1usize..4,
        crlf in any::<bool>(),
    ) {
        let texts = movetexts(family);
        let openers: Vec<&str> = OPENERS
            .iter()
            .chain(if family == 0 { CHESS_OPENERS } else { &[] })
            .copied()
            .collect();
        let mut input = String::new();
        let mut wanted = Vec::new();
        for (k, &(g, n, o)) in games.iter().enumerate() {
            let moves = first_moves(&texts[g % texts.len()], n);
            let opener = openers[o % openers.len()];
            if k > 0 {
                input.push_str(&"\n".repeat(blanks + 1));
                input.push_str(opener);
                if !opener.ends_with('\n') {
                    input.push(' ');
                }
            }
            input.push_str(&moves);
            wanted.push(moves);
        }
        input.push('\n');
        if crlf {
            input = input.replace('\n', "\r\n");
        }
        let (got, failed, kinds) = convert_all(GAMES[family].0, input.as_bytes());
        prop_assert_eq!(failed, 0, "{}", input);
        prop_assert_eq!(got.len(), wanted.len(), "{}", input);
        prop_assert!(
            kinds.iter().all(|&k| matches!(k, "board-inferred" | "board-assumed" | "annotation-before-move")),
            "{:?}", kinds
        );
        for (g, w) in got.iter().zip(&wanted) {
            // (A `;` comment is written as one, to its line's end.)
            let g: String = g
                .lines()
                .filter(|l| !l.starts_with('%'))
                .map(|l| l.split(';').next().unwrap_or(l))
                .collect::<Vec<_>>()
                .join("\n");
            let got = moves_only(&g).to_lowercase();
            prop_assert_eq!(got.trim_end_matches(" *"), moves_only(w).to_lowercase(), "{}", input);
        }
        // Each game after the first keeps its opening annotations.
        for (g, &(_, _, o)) in got.iter().zip(&games).skip(1) {
            let opener = openers[o % openers.len()];
            let word = opener.trim_start_matches(['{', '$', ';', '%', ' ']);
            let word: String = word.chars().take_while(|c| c.is_alphanumeric()).collect();
            prop_assert!(word.is_empty() || g.contains(&word), "{} in {}", word, g);
        }
    }
}

/// The negative members: a blank line and annotations before a move number
/// that follows, or before `1.` inside a comment or variation, or before a
/// move one without a blank line, split nothing.
#[test]
fn annotations_before_a_following_number_split_nothing() {
    for input in [
        "1. e4 e5 2. Nf3\n\n{here} 2... Nc6 3. Bb5 *\n",
        "1. e4 e5 2. Nf3\n\n$1 2... Nc6 *\n",
        "1. e4 e5 {a\n\n{b} 1. d4} 2. Nf3 *\n",
        "1. e4 e5 (1... c5\n\n{b} 2. Nf3) 2. Nf3 *\n",
        "1. e4 e5 2. Nf3 Nc6 {x} 3. Bb5 *\n",
    ] {
        // (One record: the one whose comment holds a `{` fails as it did,
        // at `2. Nf3`, PGN's comment ending at the first `}`.)
        let (games, failed, _) = convert_all("pgn", input.as_bytes());
        assert_eq!(games.len() + failed, 1, "{input}");
        assert_eq!(failed, usize::from(input.contains("{a\n")), "{input}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Prose before the first tag that holds digits, markup or a lone
    /// result (`Round 3: games`, `<h1>Games</h1>`, `1-0`): no game, said;
    /// the games after it read as clean ones, in every family.
    #[test]
    fn prose_and_lone_results_before_the_first_tag_are_no_game(
        family in 0..GAMES.len(),
        lines_before in proptest::collection::vec(proptest::sample::select(vec![
            "Round 3: games", "Games 1-10", "Partie 1: M\u{fc}ller - Schmidt", "<h1>Games of 2024</h1>",
            "Chapter 12. The Ruy Lopez", "\u{feff}Section 2: 1-0 wins", "Game 1.",
        ]), 0..4),
        result in proptest::option::of(proptest::sample::select(vec!["1-0", "*", "1/2-1/2", "0-1"])),
        blank in any::<bool>(),
    ) {
        prop_assume!(!lines_before.is_empty() || result.is_some());
        let sep = if blank { "\n\n" } else { "\n" };
        // (A lone result on the line before the tags.)
        let mut lines_before = lines_before;
        // (`*` in every family; the chess scores in chess.)
        lines_before.extend(result.map(|r| if family == 0 { r } else { "*" }));
        let damaged = format!("{}{sep}{}", lines_before.join(sep), clean(family));
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        prop_assert!(!kinds.is_empty() && kinds.iter().all(|&k| k == "stray-comments"), "{:?}", kinds);
    }
}

/// The negative members: text before the first tag that starts with a move
/// or a move number is a game (it fails, or reads, as a game); a result
/// after moves or tags ends its game.
#[test]
fn moves_before_the_first_tag_are_a_game() {
    for (input, games) in [
        ("e4 e5\n[Event \"x\"]\n\n1. d4 d5 *\n", 2),
        ("1. e4 e5\n[Event \"x\"]\n\n1. d4 d5 *\n", 2),
        ("{intro} 1. e4 e5 1-0\n[Event \"x\"]\n\n1. d4 d5 *\n", 2),
        ("[Event \"y\"]\n1-0\n[Event \"x\"]\n\n1. d4 d5 *\n", 2),
    ] {
        let (got, failed, kinds) = convert_all("pgn", input.as_bytes());
        assert_eq!((got.len(), failed), (games, 0), "{input} {kinds:?}");
        assert!(!kinds.contains(&"stray-comments"), "{input} {kinds:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// A letter that two languages read otherwise: `R`, a rook in English,
    /// is a king in French and in Spanish or Italian. A game whose English
    /// reading fails is read in the language whose letters play it, said.
    #[test]
    fn a_letter_english_reads_otherwise_is_read_by_the_language_that_plays(
        game in proptest::sample::select(vec![
            "1. e4 e5 2. Ke2 Ke7 3. Kf3 Kf6 *",
            "1. e4 e5 2. Ke2 Ke7 3. Ke3 d6 4. Kf3 Kd7 *",
            "1. d4 d5 2. Kd2 Kd7 3. Kc3 Kc6 4. Qd3 Qd6 *",
            "1. e4 e5 2. Nf3 Nc6 3. Ke2 Ke7 *",
            "1. h4 h5 2. Rh3 Rh6 3. e4 e5 4. Ke2 Ke7 *",
        ]),
        language in 2..LANGUAGES.len(),
    ) {
        let set = LANGUAGES[language];
        let local: String = game
            .chars()
            .map(|c| set.iter().find(|&&(_, en)| en == c).map_or(c, |&(l, _)| l))
            .collect();
        let (games, failed, kinds) = convert_all("pgn", local.as_bytes());
        prop_assert_eq!(failed, 0, "{}", local);
        let (want, _, _) = convert_all("pgn", game.as_bytes());
        prop_assert_eq!(&games, &want, "{}", local);
        prop_assert_eq!(kinds, vec!["localized-pieces"], "{}", local);
    }
}

/// The negative members: an English game whose rook move is illegal and
/// which uses letters no other language has (`N`, `B`, `Q`) fails as it
/// did, at its move; an English game that plays is never read otherwise.
/// (One of rooks and pawns alone that fails in English is read in French
/// where its `R`s play as kings: the letter is ambiguous, and said.)
#[test]
fn english_games_are_not_read_as_french() {
    for input in [
        "1. e4 e5 2. Nf3 Nc6 3. Re2 *\n",
        "[Event \"x\"]\n\n1. d4 Nf6 2. Re2 *\n",
    ] {
        let (games, failed, kinds) = convert_all("pgn", input.as_bytes());
        assert!(
            failed >= 1 && !kinds.contains(&"localized-pieces"),
            "{input}: {games:?} {kinds:?}"
        );
    }
    let (games, failed, kinds) = convert_all("pgn", b"1. a4 a5 2. Ra3 Ra6 3. Rd3 Rd6 *\n");
    assert_eq!((games.len(), failed), (1, 0));
    assert!(kinds.is_empty(), "{kinds:?}");
    assert!(games[0].contains("2. Ra3 Ra6 3. Rd3 Rd6"), "{}", games[0]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// A check or mate sign on a move that gives no check (`Nf3+`), or a
    /// mate sign on a check (`Qh5#` that the king escapes): read as the
    /// move, said once a game with a count.
    #[test]
    fn false_check_signs_are_said(
        marks in proptest::collection::vec(proptest::option::of(proptest::sample::select(vec!["+", "#", "++"])), 1..30),
    ) {
        let text = clean(0);
        let mut k = 0;
        let mut marked = [false; 4];
        let mut game = 0;
        let mut damaged = String::new();
        // Each token with the blank after it; a sign after some moves.
        for piece in text.split_inclusive([' ', '\n']) {
            let t = piece.trim_end();
            if t == "[Event" {
                game += 1;
            }
            let b = t.as_bytes();
            let mv = !t.is_empty()
                && (b[0].is_ascii_lowercase() || b"KQRBNO".contains(&b[0]))
                && !t.contains(['"', '[', '{', '}']);
            damaged.push_str(t);
            if mv {
                k += 1;
                if let Some(sign) = marks[k % marks.len()] {
                    marked[game - 1] = true;
                    damaged.push_str(sign);
                }
            }
            damaged.push_str(&piece[t.len()..]);
        }
        let (games, failed, kinds) = convert_all("pgn", damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(0), "{}", damaged);
        prop_assert!(kinds.iter().all(|&k| k == "check-mark"), "{:?}", kinds);
        prop_assert_eq!(kinds.len(), marked.iter().filter(|&&m| m).count(), "{}", damaged);
    }
}

/// A sign that says less than the move gives, or none, stays quiet: `+` or
/// no sign on a mate, no sign on a check; a true one too. Through the
/// binary, convert and diff say the false ones alike.
#[test]
fn true_and_missing_check_signs_stay_quiet() {
    let quiet = [
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 *\n",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ *\n",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# *\n",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7++ *\n",
        "1. e4 f6 2. Qh5+ g6 *\n",
        "1. e4 f6 2. Qh5 g6 *\n",
        "1. f3 e5 2. g4 Qh4# 0-1\n",
    ];
    for input in quiet {
        let (games, failed, kinds) = convert_all("pgn", input.as_bytes());
        assert_eq!((games.len(), failed), (1, 0), "{input}");
        assert!(kinds.is_empty(), "{input}: {kinds:?}");
    }
    for (input, clean) in [
        ("1. e4 f6 2. Qh5# g6 *\n", "1. e4 f6 2. Qh5 g6 *\n"),
        ("1. e4+ e5 2. Nf3# Nc6+ *\n", "1. e4 e5 2. Nf3 Nc6 *\n"),
    ] {
        let dir = scratch("world_again", "check_signs");
        let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
        std::fs::write(&a, input).expect("written");
        std::fs::write(&b, clean).expect("written");
        let (a, b) = (a.to_str().expect("a path"), b.to_str().expect("a path"));
        let out = kifu(&["convert", a, "--to", "pgn"], b"");
        assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
        let said: Vec<String> = stderr(&out)
            .lines()
            .filter(|l| l.contains(": warning["))
            .map(str::to_string)
            .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("warning[check-mark]: game 1:"), "{said:?}");
        assert!(said[0].contains(&format!("{a}:1:")), "{said:?}");
        let diff = kifu(&["diff", a, b], b"");
        no_panic(&diff);
        assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
        let heard: Vec<String> = stderr(&diff)
            .lines()
            .filter(|l| l.contains(": warning["))
            .map(str::to_string)
            .collect();
        assert_eq!(heard, said);
    }
}

/// lichess's export in the shapes it has besides the usual: a game
/// exported without its moves (`moves=false`) or aborted before any, an
/// imported game, berserk players, the export of 2017 (`userId`).
#[test]
fn lichess_exports_of_every_shape() {
    let base = serde_json::json!({
        "id": "5G7tka0t", "rated": true, "variant": "standard", "speed": "bullet", "perf": "bullet",
        "createdAt": 1_767_822_085_422i64, "status": "resign", "source": "pool",
        "players": {
            "white": {"user": {"name": "megaloblasto", "id": "megaloblasto"}, "rating": 1484, "ratingDiff": -107},
            "black": {"user": {"name": "emadsalah", "id": "emadsalah"}, "rating": 1455, "ratingDiff": 6},
        },
        "winner": "black",
        "moves": "e4 e5 Nf3 Nc6",
        "clock": {"initial": 120, "increment": 1, "totalTime": 160},
    });
    let shaped = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut g = base.clone();
        f(&mut g);
        serde_json::to_string(&g).expect("JSON") + "\n"
    };
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            shaped(&|g| {
                g.as_object_mut().expect("an object").remove("moves");
            }),
            vec!["[Result \"0-1\"]", "[Termination \"Normal\"]", "\n\n0-1\n"],
        ),
        (
            shaped(&|g| {
                let o = g.as_object_mut().expect("an object");
                o.remove("moves");
                o.remove("winner");
                o.insert("status".into(), "aborted".into());
            }),
            vec!["[Result \"*\"]", "[Termination \"Abandoned\"]"],
        ),
        (
            shaped(&|g| g["source"] = "import".into()),
            vec!["[Event \"Import\"]", "1. e4 e5 2. Nf3 Nc6 0-1"],
        ),
        (
            shaped(&|g| g["players"]["black"]["berserk"] = true.into()),
            vec!["[BlackBerserk \"true\"]\n[Variant \"Standard\"]"],
        ),
        (
            shaped(&|g| {
                g["players"]["white"] = serde_json::json!({"userId": "tf235", "rating": 1773})
            }),
            vec!["[White \"tf235\"]", "[WhiteElo \"1773\"]"],
        ),
    ];
    for (line, wants) in cases {
        let out = convert("jsonl", "pgn", &[], line.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (1, 0), "{line}: {}", stderr(&out));
        let text = stdout(&out);
        for want in wants {
            assert!(text.contains(want), "{want} in {text}");
        }
    }
    // Negative members: an object of neither shape keeps kifu's error.
    for line in [
        "{\"players\": 1, \"status\": \"resign\"}\n",
        "{\"players\": {}}\n",
    ] {
        let out = convert("jsonl", "pgn", &[], line.as_bytes());
        assert_eq!(counts(&out), (0, 1), "{line}");
        assert!(
            stderr(&out).contains("invalid game JSON"),
            "{}",
            stderr(&out)
        );
    }
}
