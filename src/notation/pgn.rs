//! `pgn`: chess in standard algebraic notation (PGN import and export
//! format). Every game is replayed by the rules: each written move resolves
//! to one legal move, and the writer spells it canonically.

use pest::iterators::Pair;
use pest::Parser;

use crate::error::Problem;
use crate::ir::chess::{
    Board as ChessBoard, Check, Move as CMove, Ply as CPly, Role, Square, Wing,
};
use crate::ir::{Game, Line, Move, Setup, Side, Tag, Variant};
use crate::notation::container::{self, syntax_problem, Notation, Parsed, Start};
use crate::notation::{ReadOptions, WriteOptions};
use crate::rules::chess::{self as rules, Written};

/// The pest parser: the container, the chess family and SAN.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/chess.pest"]
    #[grammar = "grammars/pgn.pest"]
    pub struct PgnParser;

    container_rules!(Rule, |_| "a move");
}
use grammar::{PgnParser, Rule};

/// Result tokens that end a chess record (for the record splitter).
pub const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "½-½", "1/2", "*"];

/// A move as written, where it was, and the check it claimed.
struct Seen {
    written: Written,
    check: Check,
    span: (usize, usize),
}

struct Pgn<'t, 'o> {
    text: &'t str,
    opts: &'o ReadOptions,
    board: ChessBoard,
    start: cozy_chess::Board,
    seen: Vec<Seen>,
}

impl Notation for Pgn<'_, '_> {
    type Rule = Rule;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (board, fen, pos) =
            rules::start(tags).map_err(|(msg, tag)| Problem::at(at(tag), msg))?;
        self.board = board;
        let to_move = match pos.side_to_move() {
            cozy_chess::Color::White => Side::White,
            cozy_chess::Color::Black => Side::Black,
        };
        let number = fen.is_some().then(|| u32::from(pos.fullmove_number()));
        self.start = pos;
        Ok(Start {
            variant: Variant::Chess(board),
            to_move: fen.as_ref().map(|_| to_move),
            setup: fen.map(Setup::Chess),
            number,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, pair: Pair<'_, Rule>) -> Result<Move, Problem> {
        let span = (pair.as_span().start(), pair.as_span().end());
        let mut inner = pair.into_inner();
        let form = inner.next().ok_or_else(|| Problem::whole("empty move"))?;
        let check = match inner.next().map(|c| c.as_str()) {
            Some("#") => Check::Mate,
            Some("++") => Check::Double,
            Some(_) => Check::Check,
            None => Check::None,
        };
        let written = decode(form.as_rule(), form.as_str());
        self.seen.push(Seen {
            written,
            check,
            span,
        });
        // A placeholder: `finish` puts the resolved move here.
        Ok(Move::Chess(CPly::Null))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        let mut index = 0;
        if self.opts.no_validate {
            self.board.validated = false;
            game.variant = Variant::Chess(self.board);
            if !self.seen.is_empty() {
                warnings.push(Problem::whole(
                    "moves not replayed (--no-validate): legality, ambiguity and check marks \
                     are as written, unchecked",
                ));
            }
            return unreplayed(&mut game.moves, self, &mut index);
        }
        replay(&mut game.moves, self.start.clone(), self, &mut index)
    }
}

impl Pgn<'_, '_> {
    fn problem(
        &self,
        index: usize,
        ply: &crate::ir::Ply,
        board: Option<&cozy_chess::Board>,
        why: &str,
    ) -> Problem {
        let seen = &self.seen[index];
        let pos = pest::Position::new(self.text, seen.span.0).map_or((1, 1), |p| p.line_col());
        let text = &self.text[seen.span.0..seen.span.1];
        let number = match ply.side {
            Side::White => format!("{}.", ply.number),
            Side::Black => format!("{}...", ply.number),
        };
        let fen = board.map_or(String::new(), |b| {
            format!(" (position: {})", rules::fen(b, self.board.chess960))
        });
        Problem::at(pos, format!("{number} {text}: {why}{fen}"))
    }
}

/// Resolves every move of a line and its variations on the board.
fn replay(
    line: &mut Line,
    mut board: cozy_chess::Board,
    pgn: &Pgn<'_, '_>,
    index: &mut usize,
) -> Result<(), Problem> {
    for ply in &mut line.plies {
        let k = *index;
        *index += 1;
        let before = board.clone();
        let seen = pgn
            .seen
            .get(k)
            .ok_or_else(|| Problem::whole("move count mismatch"))?;
        match seen.written {
            Written::Null => {
                board = board.null_move().ok_or_else(|| {
                    pgn.problem(k, ply, Some(&before), "a null move while in check")
                })?;
                ply.mv = Move::Chess(CPly::Null);
            }
            ref w => {
                let mv = rules::resolve(&board, pgn.board.chess960, w)
                    .map_err(|e| pgn.problem(k, ply, Some(&before), &e))?;
                let (m, after) = rules::describe(&board, mv);
                ply.mv = Move::Chess(CPly::Move(m));
                board = after;
            }
        }
        for var in &mut ply.variations {
            replay(var, before.clone(), pgn, index)?;
        }
    }
    Ok(())
}

/// Keeps moves as written (`--no-validate`).
fn unreplayed(line: &mut Line, pgn: &Pgn<'_, '_>, index: &mut usize) -> Result<(), Problem> {
    for ply in &mut line.plies {
        let k = *index;
        *index += 1;
        let seen = pgn
            .seen
            .get(k)
            .ok_or_else(|| Problem::whole("move count mismatch"))?;
        ply.mv = Move::Chess(match seen.written {
            Written::Null => CPly::Null,
            Written::Castle(wing) => {
                let rank = if ply.side == Side::White { 0 } else { 7 };
                let file = if wing == Wing::King { 7 } else { 0 };
                let mut m = CMove::new(Role::King, Square::new(file, rank));
                m.castle = Some(wing);
                m.check = seen.check;
                CPly::Move(m)
            }
            Written::Uci { .. } => {
                return Err(pgn.problem(
                    k,
                    ply,
                    None,
                    "a coordinate move needs the rules to be read: drop --no-validate",
                ))
            }
            Written::San {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut m = CMove::new(role, to);
                if let (Some(f), Some(r)) = (file, rank) {
                    m.from = Some(Square::new(f, r));
                }
                m.show_file = file;
                m.show_rank = rank;
                m.capture = capture;
                m.promotion = promotion;
                m.check = seen.check;
                CPly::Move(m)
            }
        });
        for var in &mut ply.variations {
            unreplayed(var, pgn, index)?;
        }
    }
    Ok(())
}

/// Decodes the text of one move form, which the grammar has checked.
fn decode(rule: Rule, text: &str) -> Written {
    let b = text.as_bytes();
    let square = |i: usize| Square::new(b[i] - b'a', b[i + 1] - b'1');
    let promotion = |c: Option<&u8>| c.and_then(|&c| Role::from_letter(char::from(c)));
    match rule {
        Rule::pgn_castle => Written::Castle(if b.len() >= 5 {
            Wing::Queen
        } else {
            Wing::King
        }),
        Rule::pgn_null => Written::Null,
        Rule::pgn_uci => Written::Uci {
            from: square(0),
            to: square(2),
            promotion: promotion(b.get(4)),
        },
        Rule::pgn_lan => {
            // [role] from (- or x) to [promotion]: the squares say it all.
            let at = usize::from(b[0].is_ascii_uppercase());
            Written::Uci {
                from: square(at),
                to: square(at + 3),
                promotion: promotion(b[at + 5..].iter().find(|c| c.is_ascii_uppercase())),
            }
        }
        Rule::pgn_piece => {
            let role = Role::from_letter(char::from(b[0])).unwrap_or(Role::Pawn);
            let body: Vec<u8> = b[1..]
                .iter()
                .copied()
                .filter(|&c| c != b'x' && c != b':')
                .collect();
            let n = body.len();
            let to = Square::new(body[n - 2] - b'a', body[n - 1] - b'1');
            let (mut file, mut rank) = (None, None);
            for &c in &body[..n - 2] {
                match c {
                    b'a'..=b'h' => file = Some(c - b'a'),
                    _ => rank = Some(c - b'1'),
                }
            }
            Written::San {
                role,
                file,
                rank,
                capture: n + 1 < b.len(),
                to,
                promotion: None,
            }
        }
        _ => {
            // A pawn: `e4`, `exd5`, `e8=Q`, `e8Q`, `exd6 e.p.`.
            let capture = b.len() > 2 && (b[1] == b'x' || b[1] == b':');
            let (file, to_at) = if capture {
                (Some(b[0] - b'a'), 2)
            } else {
                (None, 0)
            };
            let rest = &b[to_at + 2..];
            let promo = rest.iter().find(|c| matches!(c, b'Q' | b'R' | b'B' | b'N'));
            Written::San {
                role: Role::Pawn,
                file,
                rank: None,
                capture,
                to: square(to_at),
                promotion: promotion(promo),
            }
        }
    }
}

/// Reads one record.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let pairs = PgnParser::parse(Rule::record, text).map_err(|e| syntax_problem(text, e))?;
    let mut pgn = Pgn {
        text,
        opts,
        board: ChessBoard::STANDARD,
        start: cozy_chess::Board::default(),
        seen: Vec::with_capacity(128),
    };
    container::read(pairs, &mut pgn)
}

/// The seven-tag roster with its placeholders, which PGN export format
/// requires in every game.
const ROSTER_DEFAULTS: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes one game in PGN export format.
pub fn write(game: &Game, _opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    if game.family() != crate::ir::Family::Chess {
        return Err(Problem::whole(format!(
            "a {} game cannot be written as pgn",
            game.family().name()
        )));
    }
    let missing: Vec<Tag> = ROSTER_DEFAULTS
        .iter()
        .filter(|(name, _)| game.tag(name).is_none())
        .map(|&(name, value)| match name {
            "Result" => Tag::new(name, game.effective_result().token()),
            _ => Tag::new(name, value),
        })
        .collect();
    let with_roster;
    let game = if missing.is_empty() {
        game
    } else {
        let mut g = game.clone();
        g.tags.extend(missing);
        with_roster = g;
        &with_roster
    };
    container::write(game, out, |mv, buf| match mv {
        Move::Chess(p) => {
            spell(p, buf);
            Ok(())
        }
        _ => Err(Problem::whole("a move of another game in a chess game")),
    })?;
    Ok(Vec::new())
}

/// Spells one move in canonical SAN.
pub fn spell(ply: &CPly, buf: &mut String) {
    let m = match ply {
        CPly::Null => {
            buf.push_str("--");
            return;
        }
        CPly::Move(m) => m,
    };
    match m.castle {
        Some(Wing::King) => buf.push_str("O-O"),
        Some(Wing::Queen) => buf.push_str("O-O-O"),
        None => {
            if let Some(c) = m.role.san_letter() {
                buf.push(c);
            }
            if let Some(f) = m.show_file {
                buf.push(char::from(b'a' + f));
            }
            if let Some(r) = m.show_rank {
                buf.push(char::from(b'1' + r));
            }
            if m.capture {
                buf.push('x');
            }
            buf.push(char::from(b'a' + m.to.file()));
            buf.push(char::from(b'1' + m.to.rank()));
            if let Some(p) = m.promotion.and_then(Role::san_letter) {
                buf.push('=');
                buf.push(p);
            }
        }
    }
    match m.check {
        Check::None => {}
        Check::Check | Check::Double => buf.push('+'),
        Check::Mate => buf.push('#'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str) -> String {
        let parsed = read(text, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
        let mut out = String::new();
        write(&parsed.game, &WriteOptions::default(), &mut out).unwrap();
        out
    }

    #[test]
    fn every_san_form_is_read_and_written_canonically() {
        let out = roundtrip("1. e2e4 e7e5 2. Ng1f3 Nb8c6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 *");
        assert!(
            out.ends_with("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O *\n"),
            "{out}"
        );
        let out =
            roundtrip("[FEN \"4k3/P7/8/8/8/5N2/8/1N2K3 w - - 0 40\"]\n\n40. Nbd2 Kf7 41. a8Q *");
        assert!(out.contains("40. Nbd2 Kf7 41. a8=Q *"), "{out}");
    }

    #[test]
    fn illegal_and_ambiguous_moves_name_the_move_and_position() {
        let e = read("1. e4 e5 2. Ke3 *", &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 13));
        assert!(e.message.starts_with("2. Ke3: illegal move (position: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"), "{}", e.message);
        let e = read(
            "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *",
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("ambiguous"), "{}", e.message);
    }

    #[test]
    fn variations_replay_from_their_parent_position() {
        let out = roundtrip("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *");
        assert!(
            out.contains("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *"),
            "{out}"
        );
    }
}
