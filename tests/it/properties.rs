//! Property tests of the IR: any draughts game written in any notation and
//! read back is the same game, through the record splitter; and no input,
//! however broken, makes a reader panic.

use proptest::collection::vec;
use proptest::prelude::*;

use kifu::archive::Records;
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::family::draughts::{Board, Move as DMove, Square};
use kifu::family::{Move, Variant};
use kifu::format::by_name;
use kifu::ir::{Comment, CommentKind, Game, GameResult, Line, Outcome, Ply, Side, Tag};

/// Boards with diagonal coordinates, numeric and alphanumeric.
const BOARDS: &[u8] = &[20, 21, 23, 25, 26, 27, 29, 31, 40, 41];

fn text(no: &'static str) -> impl Strategy<Value = String> {
    vec(
        prop_oneof![
            6 => proptest::char::range('a', 'z'),
            2 => Just(' '),
            1 => proptest::char::range('0', '9'),
            1 => proptest::sample::select(vec!['"', '\\', '[', ']', '(', ')', '{', '}', ';', '%', '\n', 'é', '½', '*', '-']),
        ],
        0..20,
    )
    .prop_map(move |cs| cs.into_iter().filter(|c| !no.contains(*c)).collect())
}

/// Whether a line of `text` after a line break starts like a tag
/// (`[Name "`, as the record scanner tells it): a `{}` comment holding one
/// is written joined to the line before it, with a warning
/// (tests/write_read_back.rs checks that case).
fn holds_tag_line(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| matches!(b[i], b'\n' | b'\r') && kifu::container::scan::tag_head(b, i + 1))
}

fn comment() -> impl Strategy<Value = Comment> {
    prop_oneof![
        4 => text("}")
            .prop_filter("a line that starts like a tag", |t| !holds_tag_line(t))
            .prop_map(Comment::brace),
        1 => text("\n").prop_map(|t| Comment { text: t.into(), kind: CommentKind::Line }),
        1 => text("\n").prop_map(|t| Comment { text: t.into(), kind: CommentKind::Escape }),
    ]
}

fn comments(max: usize) -> impl Strategy<Value = Vec<Comment>> {
    vec(comment(), 0..=max)
}

/// A draughts game's result, as draughts reads its token (`0-0`: a double
/// forfeit, which Coerceo reads as a draw).
fn result() -> impl Strategy<Value = GameResult> {
    proptest::sample::select(vec![
        "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
    ])
    .prop_map(|t| {
        GameResult::parse(t)
            .expect("a result")
            .in_family(kifu::family::Family::Draughts)
    })
}

/// What a ply carries besides its move; `before` only where a reader puts it.
#[derive(Debug, Clone)]
struct Extras {
    glyph: Option<&'static str>,
    nags: Vec<u32>,
    before: Vec<Comment>,
    after: Vec<Comment>,
}

fn extras() -> impl Strategy<Value = Extras> {
    (
        proptest::option::weighted(
            0.2,
            proptest::sample::select(vec!["!", "?", "!!", "??", "!?", "?!", "(!?)"]),
        ),
        vec(0u32..300, 0..2),
        comments(1),
        comments(2),
    )
        .prop_map(|(glyph, nags, before, after)| Extras {
            glyph,
            nags,
            before,
            after,
        })
}

fn draughts_move(squares: u16) -> impl Strategy<Value = DMove> {
    // A plain move leaves every square it stands on (`1-1` is a result
    // token; `DMove::check_shape`): one that would not is a capture.
    (vec(1..=squares, 2..5), any::<bool>()).prop_map(|(path, capture)| DMove {
        capture: capture || path.windows(2).any(|w| w[0] == w[1]),
        path: path.into_iter().map(Square).collect(),
    })
}

/// A line of plies numbered as a reader numbers them, with variations.
fn line(squares: u16, first: Side, number: u32, side: Side, depth: u32) -> BoxedStrategy<Line> {
    let ply = (draughts_move(squares), extras());
    (vec(ply, 0..6), comments(1), vec(0usize..6, 0..3))
        .prop_flat_map(move |(moves, trailing, var_at)| {
            // Variations hang on some plies; each is a line of its own.
            let mut plies = Vec::new();
            let (mut n, mut s) = (number, side);
            for (mv, ex) in moves {
                let mut p = Ply::new(n, s, Move::Draughts(mv));
                p.glyph = ex.glyph.map(str::to_string);
                p.nags = ex.nags;
                p.before = ex.before;
                p.after = ex.after.into();
                plies.push(p);
                if s != first {
                    n += 1;
                }
                s = s.other();
            }
            let vars: Vec<BoxedStrategy<(usize, Line)>> = if depth == 0 {
                Vec::new()
            } else {
                var_at
                    .into_iter()
                    .filter(|&i| i < plies.len())
                    .map(|i| {
                        let (vn, vs) = (plies[i].number, plies[i].side);
                        line(squares, first, vn, vs, depth - 1)
                            .prop_map(move |l| (i, l))
                            .boxed()
                    })
                    .collect()
            };
            (Just(plies), Just(trailing), vars)
        })
        .prop_map(|(mut plies, trailing, vars)| {
            for (i, v) in vars {
                plies[i].variations.push(v);
            }
            // Comments stand where a reader puts them: `before` only on the
            // first ply and after a ply with variations; `trailing` only
            // when the line is empty or its last ply has variations.
            for i in 1..plies.len() {
                if plies[i - 1].variations.is_empty() {
                    let moved = std::mem::take(&mut plies[i].before);
                    plies[i - 1].after.extend(moved);
                }
            }
            let mut line = Line { plies, trailing };
            if let Some(last) = line.plies.last_mut() {
                if last.variations.is_empty() {
                    last.after.extend(line.trailing.drain(..));
                }
            }
            line
        })
        .boxed()
}

fn game() -> impl Strategy<Value = Game> {
    (proptest::sample::select(BOARDS), 1u32..200, any::<bool>())
        .prop_flat_map(|(gt, number, second)| {
            let board = Board::preset(gt).expect("a preset");
            let first = board.first;
            let side = if second { first.other() } else { first };
            let roster = vec(
                proptest::sample::select(vec![0usize, 1, 2, 3, 4, 5, 6]),
                0..4,
            );
            let other = vec(("[A-Z][a-zA-Z0-9_]{0,8}", text("\n\r")), 0..3);
            (
                Just(board),
                roster,
                vec(text("\n\r"), 4),
                other,
                comments(2),
                line(board.square_count(), first, number, side, 2),
                result(),
            )
        })
        .prop_map(
            |(board, mut roster, values, other, preamble, moves, result)| {
                const ROSTER: [&str; 7] =
                    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
                roster.sort_unstable();
                roster.dedup();
                let mut tags: Vec<Tag> = roster
                    .iter()
                    .zip(values.iter().cycle())
                    .map(|(&i, v)| Tag::new(ROSTER[i], v.clone()))
                    .collect();
                // A tag the dialect lifts (`GameType`, `FEN`, in any case, as
                // the reader finds them) is the board's or the setup's: the
                // game would say two things at once.
                for (name, value) in other {
                    let lifted = ["GameType", "FEN"]
                        .iter()
                        .any(|l| name.eq_ignore_ascii_case(l));
                    if !ROSTER.contains(&name.as_str()) && !lifted {
                        tags.push(Tag::new(name, value));
                    }
                }
                // Every board named, as kifu writes it (a record without
                // the tag has its board inferred from the moves).
                tags.push(Tag::new("GameType", board.game_type.to_string()));
                let mut game = Game::new(Variant::Draughts(board));
                if !tags.is_empty() {
                    game.preamble = preamble;
                }
                game.tags = tags;
                game.moves = moves;
                game.result = Some(result);
                game
            },
        )
}

/// A game without what the fast lexer leaves to the grammar: no preamble,
/// `%` lines written as `;` comments, glyphs without parentheses, tag
/// values without quotes or backslashes (escaped when written).
fn plain_for_the_lexer(game: &mut Game) {
    fn line(l: &mut Line) {
        for c in l.trailing.iter_mut() {
            plain(c);
        }
        for p in &mut l.plies {
            p.before.iter_mut().chain(&mut p.after).for_each(plain);
            if let Some(g) = &mut p.glyph {
                g.retain(|c| c != '(' && c != ')');
            }
            p.variations.iter_mut().for_each(line);
        }
    }
    fn plain(c: &mut Comment) {
        if c.kind == CommentKind::Escape {
            c.kind = CommentKind::Line;
        }
    }
    game.preamble.clear();
    for t in &mut game.tags {
        t.value.retain(|c| c != '"' && c != '\\');
    }
    line(&mut game.moves);
}

fn write_all(format: &str, games: &[Game]) -> String {
    let f = by_name(format).expect("a format");
    let write = f.write.expect("a writer");
    let mut out = String::from(f.framing.head);
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push_str(f.framing.between);
        }
        write(g, &WriteOptions::default(), &mut out).expect("writes");
    }
    out.push_str(f.framing.tail);
    out
}

fn read_all(format: &str, text: &str) -> Vec<Game> {
    let f = by_name(format).expect("a format");
    let read = f.read.expect("a reader");
    let mut records = Records::new(text.as_bytes(), f.split);
    let mut games = Vec::new();
    while let Some(batch) = records.next_batch(64).expect("in memory") {
        for r in batch.records.iter().filter(|r| r.is_game) {
            let record = std::str::from_utf8(&batch.data[r.range.clone()]).expect("UTF-8");
            // The games are made up move by move: read by syntax alone.
            let opts = ReadOptions {
                no_validate: true,
                ..ReadOptions::default()
            };
            match read.game(record, &opts) {
                Ok(p) => games.push(p.game),
                Err(e) => panic!("{format}: {e:?} in\n{record}"),
            }
        }
    }
    games
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_format_gives_back_the_same_games(games in vec(game(), 1..4)) {
        for format in ["draughts-num", "draughts-diag", "json", "jsonl"] {
            let text = write_all(format, &games);
            let back = read_all(format, &text);
            prop_assert_eq!(&back, &games, "{}:\n{}", format, text);
            prop_assert_eq!(write_all(format, &back), text);
        }
    }

    #[test]
    fn made_up_games_are_written_the_same_streamed_as_whole(
        games in vec(game(), 1..3),
        plain in any::<bool>(),
    ) {
        // Half the cases without what sends a record to the grammar (a
        // preamble, `%` lines, ...), so that more are read a run at a time.
        let mut games = games;
        if plain {
            games.iter_mut().for_each(plain_for_the_lexer);
        }
        // Each ply a run: the runs are cut everywhere.
        let text = write_all("draughts-num", &games);
        // (Every record the fast lexer takes is read a run at a time; those
        // of boards with alphanumeric squares are left to the grammar.)
        crate::streaming::streamed_records("draughts-num", text.as_bytes(), true);
        for to in ["draughts-num", "draughts-diag"] {
            let (whole, streamed) =
                crate::streaming::both_ways("draughts-num", to, text.as_bytes(), true);
            prop_assert!(!whole.is_empty());
            prop_assert_eq!(whole, streamed, "{}", text);
        }
    }

    #[test]
    fn made_up_games_are_drawn_or_refused_after_any_ply(
        games in vec(game(), 1..3),
        ply in 0usize..6,
        flip in any::<bool>(),
    ) {
        for picture in ["svg", "html"] {
            let f = by_name(picture).expect("a format");
            let ply = ply.to_string();
            let flip = flip.to_string();
            let format = f.options.build(&[("ply", &ply), ("flip", &flip)]).expect("options");
            let opts = WriteOptions { format, ..WriteOptions::default() };
            for g in &games {
                let mut out = String::new();
                match (f.write.expect("a writer"))(g, &opts, &mut out) {
                    // A drawing holds one frame per position it can show.
                    Ok(_) => prop_assert!(out.contains("<svg ")),
                    // Made-up moves are often illegal: said, not drawn.
                    Err(e) => prop_assert!(!e.message.is_empty()),
                }
            }
        }
    }

    #[test]
    fn readers_never_panic(text in "[ -~\n\u{e9}\u{bd}]{0,200}") {
        for f in kifu::format::FORMATS {
            if let Some(read) = f.read {
                let _ = read.game(&text, &ReadOptions::default());
            }
        }
    }

    #[test]
    fn pdn_shaped_noise_never_panics(
        tokens in vec(proptest::sample::select(vec![
            "1.", "12...", "32-28", "28x19x10", "f45", "gf5", "e8g6x", "f6x", "a3b4", "0-0",
            "{", "}", "(", ")", "[", "]", "[GameType \"27\"]", "[GameType \"22\"]",
            "[FEN \"W:W31-50:B1-20\"]", "[FEN \"B:W1", "$", "$3", "!?", "(!?)", ";x\n", "%e\n",
            "*", "2-0", "1-1", "1/2-1/2", "\"", "99-100", "e0-f11", "\n", " ",
        ]), 0..40)
    ) {
        let text: String = tokens.concat();
        for name in ["draughts-num", "draughts-diag"] {
            let f = by_name(name).expect("a format");
            let mut records = Records::new(text.as_bytes(), f.split);
            while let Some(batch) = records.next_batch(16).expect("in memory") {
                for r in &batch.records {
                    let record = std::str::from_utf8(&batch.data[r.range.clone()]).expect("UTF-8");
                    if let Ok(p) = f.read.expect("reader").game(record, &ReadOptions::default()) {
                        let mut out = String::new();
                        let _ = (f.write.expect("writer"))(&p.game, &WriteOptions::default(), &mut out);
                        // Drawn too, on whatever board it names.
                        for picture in ["svg", "html"] {
                            let w = by_name(picture).and_then(|f| f.write).expect("writer");
                            let _ = w(&p.game, &WriteOptions::default(), &mut String::new());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn outcome_tokens_round_trip() {
    for t in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"] {
        assert_eq!(GameResult::parse(t).map(GameResult::token), Some(t));
    }
    assert_eq!(
        GameResult::parse("½-½").map(|r| r.outcome),
        Some(Outcome::Draw)
    );
    assert_eq!(GameResult::parse("4-6"), None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random legal Coerceo games, on both boards and with either
    /// exchange, written bare and in full: read back, the bare one gets
    /// every capture and removal computed, and both round-trip
    /// (`check::coerceo_plays`, which the `roundtrip_coerceo` fuzz target
    /// runs too).
    #[test]
    fn random_legal_coerceo_games_are_computed_back(data in vec(any::<u8>(), 1..400)) {
        let _ = crate::check::coerceo_plays(&data);
    }
}

#[test]
fn long_coerceo_games_reach_captures_removals_and_exchanges() {
    // A few long games, each choice the first turn that captures or
    // removes where one does: the plays above reach every kind of turn.
    for first in 0..4u8 {
        let data: Vec<u8> = std::iter::once(first)
            .chain((0..600u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8))
            .collect();
        let _ = crate::check::coerceo_plays(&data);
    }
}
