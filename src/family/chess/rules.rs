//! Chess rules on one board ([`Position`], with cozy-chess for attack tables
//! and FEN): the start position a game's tags give,
//! resolving a written move against the legal moves, and the one replay of
//! a game ([`Replay`]) that readers, the JSON check and writers share: it
//! resolves or checks each move and derives how standard notation spells it
//! (disambiguation, check state).

use std::borrow::Borrow;

use cozy_chess as cz;

use crate::error::{Kind, Problem};
use crate::family::any::Move as IrMove;
use crate::family::chess::hooks::{board_of, fen_of, ply_of};
use crate::family::chess::{
    Board as ChessBoard, Check, Claim, Move, Ply, Role, Spelling, Square, Wing,
};
use crate::ir::{find_tag, Game, Line, Ply as IrPly, Side, Tag};

mod position;

pub use position::*;

/// A written move before it is resolved on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// Standard algebraic notation, or anything with the same information.
    San {
        /// The piece.
        role: Role,
        /// The file of departure, if written.
        file: Option<u8>,
        /// The rank of departure, if written.
        rank: Option<u8>,
        /// Written as a capture.
        capture: bool,
        /// The square of arrival.
        to: Square,
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(Wing),
    /// Coordinates only (`g1f3`, `e7e8q`), as UCI writes them.
    Uci {
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// A null move.
    Null,
}

/// Variant tag values that name standard chess.
const STANDARD: &[&str] = &[
    "",
    "standard",
    "chess",
    "normal",
    "from position",
    "fromposition",
];
/// Variant tag values that name Fischer random chess.
const CHESS960: &[&str] = &[
    "chess960",
    "chess 960",
    "960",
    "fischerandom",
    "fischerrandom",
    "fischer random",
    "fischer random chess",
    "freestyle",
];

/// Whether a Variant tag value names Fischer random chess (`Some(true)`),
/// standard chess (`Some(false)`), or neither.
pub fn names_chess960(value: &str) -> Option<bool> {
    let v = value.trim().to_ascii_lowercase();
    if CHESS960.contains(&v.as_str()) {
        Some(true)
    } else if STANDARD.contains(&v.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// The variant and start position of a game, from its `Variant` and `FEN`
/// tags, and what was repaired of the FEN ([`parse_fen_repairing`]). Games
/// of variants kifu does not play are refused.
#[allow(clippy::type_complexity)]
pub fn start(
    tags: &[Tag],
) -> Result<(ChessBoard, Option<String>, Position, Option<String>), (Problem, &'static str)> {
    let tag = |name: &str| find_tag(tags, name).map(|i| &tags[i]);
    let variant = tag("Variant").map_or(String::new(), |t| t.value.trim().to_ascii_lowercase());
    let chess960 = if STANDARD.contains(&variant.as_str()) {
        false
    } else if CHESS960.contains(&variant.as_str()) {
        true
    } else {
        return Err((
            Problem::whole(format!(
                "variant {} is not played by kifu (standard chess and Chess960 only)",
                crate::error::quote(tag("Variant").map_or("", |t| t.value.as_str()))
            ))
            .of_kind(Kind::VariantUnplayed),
            "Variant",
        ));
    };
    let board = ChessBoard {
        chess960,
        validated: true,
    };
    match tag("FEN") {
        None => Ok((board, None, Position::start(), None)),
        Some(t) => {
            let (pos, repaired) = parse_fen_repairing(&t.value)
                .map_err(|e| (Problem::whole(e).of_kind(Kind::TagValue), "FEN"))?;
            let position = Position::of(&pos).numbered(&t.value);
            let fen = renumbered(format!("{pos:#}"), position.fullmove_number());
            Ok((board, Some(fen), position, repaired))
        }
    }
}

/// The standard start position (built once: building a board costs more
/// than replaying a move).
pub fn start_position() -> cz::Board {
    static START: std::sync::LazyLock<cz::Board> = std::sync::LazyLock::new(cz::Board::default);
    START.clone()
}

pub use crate::family::chess::{Fen, Position};

impl Fen {
    /// The FEN's text (Shredder castling letters): as read, or made from
    /// the position.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Fen::Text(fen) => fen.as_str().into(),
            Fen::Board(position) => position.fen(true).into(),
        }
    }

    /// The position it gives on the rules' board: the one held, or its
    /// text read.
    pub fn position(&self) -> Result<Position, String> {
        match self {
            Fen::Text(fen) => position_of_fen(fen),
            Fen::Board(position) => Ok(*position),
        }
    }
}

impl serde::Serialize for Fen {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de> serde::Deserialize<'de> for Fen {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Fen, D::Error> {
        <String as serde::Deserialize>::deserialize(d).map(Fen::Text)
    }
}

/// The position a FEN gives (as a setup's is read).
pub fn position_of_fen(fen: &str) -> Result<Position, String> {
    Ok(Position::of(&parse_fen(fen)?).numbered(fen))
}

/// A FEN's text as the board it gives writes it, with Shredder castling
/// letters (`chess960`) or standard ones, its move number kept past
/// 65,535.
pub fn refen(fen: &str, chess960: bool) -> Result<String, String> {
    let board = parse_fen(fen)?;
    Ok(renumbered(
        self::fen(&board, chess960),
        fullmove_of(fen).unwrap_or(0),
    ))
}

/// Reads a FEN with standard (`KQkq`), X-FEN or Shredder (`HAha`) castling
/// rights; the move counters may be missing.
pub fn parse_fen(fen: &str) -> Result<cz::Board, String> {
    fen_fields(fen, &mut None)
}

/// Reads a FEN as [`parse_fen`] does, repairing what a position cannot have
/// and an export still writes: castling rights with no king or rook to
/// castle with are dropped, then, when the position is still refused, every
/// castling right, then the en passant square. The board, and what was
/// repaired (`None` when nothing was).
pub fn parse_fen_repairing(fen: &str) -> Result<(cz::Board, Option<String>), String> {
    let strict = match parse_fen(fen) {
        Ok(board) => return Ok((board, None)),
        Err(e) => e,
    };
    let mut dropped = Some(String::new());
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let with = |castling: &str, ep: &str| {
        let mut f: Vec<&str> = fields.clone();
        if f.len() >= 4 {
            f[2] = castling;
            f[3] = ep;
        }
        f.join(" ")
    };
    let said = |what: String| Some(format!("{strict}: {what}"));
    if let Ok(board) = fen_fields(fen, &mut dropped) {
        let gone = dropped.unwrap_or_default();
        return Ok((
            board,
            said(format!(
                "castling rights {gone} dropped",
                gone = crate::error::quote(&gone)
            )),
        ));
    }
    if fields.len() >= 4 {
        if let Ok(board) = parse_fen(&with("-", fields[3])) {
            return Ok((
                board,
                said(format!(
                    "castling rights {} dropped",
                    crate::error::quote(fields[2])
                )),
            ));
        }
        if let Ok(board) = parse_fen(&with("-", "-")) {
            return Ok((
                board,
                said(format!(
                    "castling rights `{}` and en passant square `{}` dropped",
                    fields[2], fields[3]
                )),
            ));
        }
    }
    Err(strict)
}

/// Reads a FEN; castling rights with no rook to castle with are an error,
/// or, with `dropped` given, left out and collected there.
fn fen_fields(fen: &str, dropped: &mut Option<String>) -> Result<cz::Board, String> {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 4 {
        return Err(format!(
            "FEN {fen} has fewer than four fields",
            fen = crate::error::quote(fen)
        ));
    }
    while fields.len() < 6 {
        fields.push(if fields.len() == 4 { "0" } else { "1" }.to_string());
    }
    // Castling rights as Shredder letters: the files of the rooks.
    let placement = &fields[0];
    let ranks: Vec<&str> = placement.split('/').collect();
    let back_rank = |white: bool| -> Vec<char> {
        let row = if white { ranks.last() } else { ranks.first() };
        let mut cells = Vec::new();
        for c in row.copied().unwrap_or("").chars() {
            match c.to_digit(10) {
                Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                None => cells.push(c),
            }
        }
        cells
    };
    if fields[2] != "-" {
        let mut out = String::new();
        for c in fields[2].chars() {
            let white = c.is_ascii_uppercase();
            let row = back_rank(white);
            let (king, rook) = if white { ('K', 'R') } else { ('k', 'r') };
            let king_file = row.iter().position(|&p| p == king);
            let file = match (c.to_ascii_lowercase(), king_file) {
                ('k', Some(kf)) => row.iter().rposition(|&p| p == rook).filter(|&f| f > kf),
                ('q', Some(kf)) => row.iter().position(|&p| p == rook).filter(|&f| f < kf),
                (f @ 'a'..='h', _) => Some(f as usize - 'a' as usize),
                _ => None,
            };
            let file = match (file, dropped.as_mut()) {
                (Some(file), _) => file,
                (None, Some(gone)) => {
                    gone.push(c);
                    continue;
                }
                (None, None) => {
                    return Err(format!(
                        "FEN {fen}: castling right {c} has no rook to castle with",
                        fen = crate::error::quote(fen),
                        c = crate::error::quote(&c.to_string())
                    ))
                }
            };
            let letter = char::from(b'a' + file as u8);
            out.push(if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        fields[2] = if out.is_empty() { "-".to_string() } else { out };
    }
    // A move number past what the board holds: the board is read with its
    // largest, and the position takes the number from the text
    // ([`Position::numbered`]).
    if fields[5]
        .parse::<u32>()
        .is_ok_and(|n| n > u32::from(u16::MAX))
    {
        fields[5] = u16::MAX.to_string();
    }
    cz::Board::from_fen(&fields.join(" "), true).map_err(|e| {
        format!(
            "FEN {fen} is not a legal position: {e:?}",
            fen = crate::error::quote(fen)
        )
    })
}

fn cz_square(s: Square) -> cz::Square {
    cz::Square::index(usize::from(s.0))
}

fn ir_square(s: cz::Square) -> Square {
    Square(s as u8)
}

fn cz_role(r: Role) -> cz::Piece {
    match r {
        Role::Pawn => cz::Piece::Pawn,
        Role::Knight => cz::Piece::Knight,
        Role::Bishop => cz::Piece::Bishop,
        Role::Rook => cz::Piece::Rook,
        Role::Queen => cz::Piece::Queen,
        Role::King => cz::Piece::King,
    }
}

fn ir_role(p: cz::Piece) -> Role {
    match p {
        cz::Piece::Pawn => Role::Pawn,
        cz::Piece::Knight => Role::Knight,
        cz::Piece::Bishop => Role::Bishop,
        cz::Piece::Rook => Role::Rook,
        cz::Piece::Queen => Role::Queen,
        cz::Piece::King => Role::King,
    }
}

/// The legal move a written move means in a position, or why there is none.
pub fn resolve(pos: &Position, chess960: bool, w: &Written) -> Result<cz::Move, String> {
    let us = pos.us;
    match *w {
        Written::Null => Err("a null move is not a move".to_string()),
        Written::Castle(wing) => {
            let mv = pos
                .king(us)
                .zip(pos.castling_rook(us, wing))
                .map(|(king, f)| cz::Move {
                    from: king,
                    to: cz::Square::new(f, king.rank()),
                    promotion: None,
                });
            match mv {
                Some(mv) if pos.legal(mv, cz::Piece::King) => Ok(mv),
                Some(_) => Err("castling is not legal here".to_string()),
                None => Err("castling rights are gone".to_string()),
            }
        }
        Written::Uci {
            from,
            to,
            promotion,
        } => {
            let (from, mut to) = (cz_square(from), cz_square(to));
            let Some(piece) = pos.piece_of(us, from) else {
                return Err("no such legal move".to_string());
            };
            // Standard chess writes castling as the king's two-square step.
            if piece == cz::Piece::King && !chess960 {
                let df = to.file() as i32 - from.file() as i32;
                if df.abs() == 2 && to.rank() == from.rank() {
                    let wing = if df > 0 { Wing::King } else { Wing::Queen };
                    if let Some(f) = pos.castling_rook(us, wing) {
                        to = cz::Square::new(f, from.rank());
                    }
                }
            }
            let mv = cz::Move {
                from,
                to,
                promotion: promotion.map(cz_role),
            };
            if pos.legal(mv, piece) {
                Ok(mv)
            } else {
                Err("no such legal move".to_string())
            }
        }
        Written::San {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => {
            let target = cz_square(to);
            let promo = promotion.map(cz_role);
            let piece = cz_role(role);
            let mut found: Option<cz::Move> = None;
            let mut count = 0;
            let mut from = Vec::new();
            let mut candidates = pos.piece(piece) & pos.side(us) & reachers(pos, piece, target);
            if let Some(f) = file {
                candidates &= cz::File::index(usize::from(f)).bitboard();
            }
            if let Some(r) = rank {
                candidates &= cz::Rank::index(usize::from(r)).bitboard();
            }
            // A king "taking" its own rook is castling, never Kxh1.
            if piece == cz::Piece::King && pos.side(us).has(target) {
                candidates = cz::BitBoard::EMPTY;
            }
            // A piece other than a pawn or king among the candidates reaches
            // the target already: its move is legal when it lands on no
            // piece of its own, promotes nothing and leaves its king safe.
            let reached = matches!(
                piece,
                cz::Piece::Knight | cz::Piece::Bishop | cz::Piece::Rook | cz::Piece::Queen
            );
            if reached && (promo.is_some() || pos.side(us).has(target)) {
                candidates = cz::BitBoard::EMPTY;
            }
            for sq in candidates {
                let mv = cz::Move {
                    from: sq,
                    to: target,
                    promotion: promo,
                };
                let legal = if reached {
                    pos.safe_after(sq, target, target)
                } else {
                    pos.legal(mv, piece)
                };
                if !legal {
                    continue;
                }
                count += 1;
                if count > 1 {
                    // Ambiguous: keep the squares for the message.
                    from.extend(found.map(|f| f.from));
                    from.push(mv.from);
                    found = None;
                } else {
                    found = Some(mv);
                }
            }
            match (count, found) {
                (1, Some(mv)) => Ok(mv),
                (0, _) => Err(match promotion {
                    None if role == Role::Pawn && to.rank() % 7 == 0 => {
                        "illegal: a pawn reaching the last rank must promote".to_string()
                    }
                    _ => "illegal move".to_string(),
                }),
                _ => {
                    let list: Vec<String> = from.iter().map(|s| s.to_string()).collect();
                    Err(format!("ambiguous: it can come from {}", list.join(" or ")))
                }
            }
        }
    }
}

/// A move as written, without the board (`--no-validate`): what the text
/// claims and nothing the rules would derive. Castling puts the king on the
/// rook's square of a standard start. Coordinate moves need the board to be
/// told apart (which piece? castling?) and are refused.
pub fn as_written(w: &Written, check: Check, side: Side) -> Result<Ply, String> {
    Ok(match *w {
        Written::Null => Ply::Null,
        Written::Castle(wing) => {
            let rank = if side == Side::White { 0 } else { 7 };
            let file = if wing == Wing::King { 7 } else { 0 };
            Ply::Claimed(Claim {
                role: Role::King,
                file: None,
                rank: None,
                to: Square::new(file, rank),
                capture: false,
                promotion: None,
                castle: Some(wing),
                check,
            })
        }
        Written::Uci { .. } => {
            return Err("a coordinate move needs the rules to be read: drop --no-validate".into())
        }
        Written::San {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => Ply::Claimed(Claim {
            role,
            file,
            rank,
            to,
            capture,
            promotion,
            castle: None,
            check,
        }),
    })
}

/// The warning of a game converted without replaying its moves.
pub const UNREPLAYED: &str = "moves not replayed (--no-validate): legality, ambiguity and \
                              check marks are as written, unchecked";

/// The squares from which a piece of the kind could reach `target` in this
/// position, ignoring pins: a cheap filter before the legality test.
fn reachers(pos: &Position, piece: cz::Piece, target: cz::Square) -> cz::BitBoard {
    let occupied = pos.occupied();
    match piece {
        cz::Piece::Knight => cz::get_knight_moves(target),
        cz::Piece::Bishop => cz::get_bishop_moves(target, occupied),
        cz::Piece::Rook => cz::get_rook_moves(target, occupied),
        cz::Piece::Queen => {
            cz::get_bishop_moves(target, occupied) | cz::get_rook_moves(target, occupied)
        }
        cz::Piece::King => cz::get_king_moves(target),
        // Pushes come from the target's file, captures (en passant too)
        // from the squares a pawn of the side to move attacks it from.
        cz::Piece::Pawn => target.file().bitboard() | cz::get_pawn_attacks(target, !pos.us),
    }
}

/// What a legal move of a piece of `role` does in a position, before it is
/// played: the piece, squares, capture, promotion, castling and en passant.
fn meaning(pos: &Position, mv: cz::Move, role: Role) -> Move {
    let us = pos.us;
    let castle = (role == Role::King && pos.side(us).has(mv.to)).then(|| {
        if mv.to.file() > mv.from.file() {
            Wing::King
        } else {
            Wing::Queen
        }
    });
    let taken = pos.side(!us).has(mv.to);
    let en_passant = role == Role::Pawn && mv.from.file() != mv.to.file() && !taken;
    Move {
        role,
        from: Some(ir_square(mv.from)),
        to: ir_square(mv.to),
        capture: taken || en_passant,
        promotion: mv.promotion.map(ir_role),
        castle,
        en_passant,
    }
}

/// Describes a legal move and plays it: what it means, and how standard
/// notation spells it where it stands.
pub fn play(pos: &mut Position, mv: cz::Move) -> (Move, Spelling) {
    let role = pos.piece_of(pos.us, mv.from).map_or(Role::Pawn, ir_role);
    let m = meaning(pos, mv, role);
    let (file, rank) = pos.shown_origin(&m);
    pos.apply_move(&m);
    let spelling = Spelling {
        file,
        rank,
        check: pos.check(),
    };
    (m, spelling)
}

/// Passes the move, unless the side to move is in check.
fn play_null(pos: &mut Position) -> Result<Ply, String> {
    if pos.in_check() {
        return Err("a null move while in check".to_string());
    }
    pos.pass();
    Ok(Ply::Null)
}

/// Resolves a written move in the position and plays it.
fn play_written(pos: &mut Position, chess960: bool, w: &Written) -> Result<Ply, String> {
    if *w == Written::Null {
        return play_null(pos);
    }
    let mv = resolve(pos, chess960, w)?;
    let role = match *w {
        Written::San { role, .. } => role,
        Written::Castle(_) => Role::King,
        _ => pos.piece_of(pos.us, mv.from).map_or(Role::Pawn, ir_role),
    };
    let m = meaning(pos, mv, role);
    pos.apply_move(&m);
    Ok(Ply::Move(m))
}

/// Checks a ply's own move in the position (it must be legal there and
/// mean what its fields say) and plays it.
pub fn play_given(pos: &mut Position, mv: &IrMove) -> Result<Ply, String> {
    let m = match *ply_of(mv)? {
        Ply::Null => return play_null(pos),
        Ply::Claimed(_) => {
            return Err("a move as written (not replayed) in a replayed game".to_string())
        }
        Ply::Move(m) => m,
    };
    let from = m
        .from
        .ok_or_else(|| "a move without its square of departure".to_string())?;
    let mv = cz::Move {
        from: cz_square(from),
        to: cz_square(m.to),
        promotion: m.promotion.map(cz_role),
    };
    let piece = cz_role(m.role);
    let mismatch = || format!("{from}{}: its fields do not match the position", m.to);
    match pos.piece_of(pos.us, mv.from) {
        Some(p) if p == piece => {}
        // Not the piece it says: its fields are wrong if the move is legal.
        Some(p) if pos.legal(mv, p) => return Err(mismatch()),
        _ => return Err(format!("{from}{} is not legal", m.to)),
    }
    if !pos.legal(mv, piece) {
        return Err(format!("{from}{} is not legal", m.to));
    }
    if meaning(pos, mv, m.role) != m {
        return Err(mismatch());
    }
    pos.apply_move(&m);
    Ok(Ply::Move(m))
}

/// Spells a ply's own move, known to be legal, and plays it.
#[inline(always)]
fn play_spelled(squares: &mut Position, mv: &IrMove) -> Result<(Ply, Spelling), String> {
    match ply_of(mv)? {
        Ply::Move(m) if m.from.is_some() => {
            let (file, rank) = squares.shown_origin(m);
            // Spelling needs the pieces alone, not the counters or rights.
            squares.place(m);
            let spelling = Spelling {
                file,
                rank,
                check: squares.check(),
            };
            Ok((Ply::Move(*m), spelling))
        }
        Ply::Move(_) => Err("a move without its square of departure".to_string()),
        Ply::Null => {
            squares.pass();
            Ok((Ply::Null, Spelling::default()))
        }
        Ply::Claimed(_) => Err("a move as written (not replayed) in a replayed game".to_string()),
    }
}

/// A ply of a game not replayed: a claim's meaning and its spelling as
/// written; a move's meaning with nothing derived (a capturing pawn shows
/// its file).
fn as_claimed(mv: &IrMove) -> Result<(Ply, Spelling), String> {
    match *ply_of(mv)? {
        Ply::Null => Ok((Ply::Null, Spelling::default())),
        Ply::Claimed(c) => {
            if c.file.is_some_and(|f| f > 7) || c.rank.is_some_and(|r| r > 7) {
                return Err("a file or rank of departure off the board".to_string());
            }
            if matches!(c.promotion, Some(Role::Pawn | Role::King)) {
                return Err("a pawn cannot become a pawn or a king".to_string());
            }
            Ok((Ply::Move(c.meaning()), c.spelling()))
        }
        Ply::Move(m) => {
            let file = m
                .from
                .filter(|_| m.role == Role::Pawn && m.capture)
                .map(|f| f.file());
            Ok((
                Ply::Move(m),
                Spelling {
                    file,
                    ..Spelling::default()
                },
            ))
        }
    }
}

/// The one replay of a chess game's moves, which readers, the JSON check
/// and writers share.
///
/// It walks a line in the order its moves are written: each ply, then each
/// of its variations from the position before that ply, then the next ply.
/// Moves are played in place; a position is copied only where variations
/// branch. Three walks:
/// - [`Replay::start`] then [`Replay::resolve`] (readers): each written move
///   is resolved on the rules' board and played;
/// - [`Replay::new`] then [`Replay::walk`] (the JSON check; later, diff):
///   each ply's own move is checked (legal where it stands, meaning what its
///   fields say) and played;
/// - [`Replay::spelling`] then [`Replay::walk`] (writers): each ply's own
///   move, known legal in a replayed game, is played on a light board that
///   derives how standard notation spells it where it stands
///   (disambiguation, check, mate).
///
/// A game that was not replayed (`--no-validate`: `Board::validated`
/// false) is walked without a board: each step yields a [`Claim`]'s
/// meaning and spelling as written. A walk ends at the first [`Stop`].
///
/// ```
/// use kifu::family::chess::{rules::Replay, Check};
/// # use kifu::codec::ReadOptions;
/// let text = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *";
/// let game = kifu::family::chess::pgn::read(text, &ReadOptions::default())
///     .unwrap()
///     .game;
/// let mut checks = Vec::new();
/// Replay::spelling(&game)
///     .unwrap()
///     .walk(|step| checks.push(step.spelling.check))
///     .unwrap();
/// assert_eq!(checks.last(), Some(&Check::Mate));
/// assert!(Replay::new(&game).unwrap().walk(|_| ()).is_ok());
/// ```
pub struct Replay<'g> {
    line: &'g Line,
    start: Start,
    chess960: bool,
    /// Walk variations too.
    variations: bool,
}

/// Where a walk starts, and how it plays moves.
enum Start {
    /// On the rules' board: moves are checked or resolved.
    Rules(Position),
    /// On the light board: moves known legal are spelled.
    Spelling(Position),
    /// A game not replayed.
    Unreplayed,
}

/// One ply as a [`Replay`] walks it.
#[derive(Debug, Clone, Copy)]
pub struct Step<'g> {
    /// The ply.
    pub ply: &'g IrPly,
    /// Its move: the written one resolved, or the ply's own (a [`Claim`] as
    /// its meaning, in a game not replayed). Never [`Ply::Claimed`].
    pub mv: Ply,
    /// How standard notation spells the move where it stands, in a
    /// [`Replay::spelling`] walk (or as a claim says); else the default,
    /// nothing shown.
    pub spelling: Spelling,
}

/// Why a [`Replay`] stopped at a ply.
#[derive(Debug, Clone)]
pub struct Stop<'g> {
    /// The ply whose move is wrong.
    pub ply: &'g IrPly,
    /// Its place in the walk, from 0 (the order its moves are written in).
    pub index: usize,
    /// What is wrong with it (`illegal move`, `ambiguous: it can come from
    /// b1 or f3`, `e2e5 is not legal`).
    pub why: String,
    /// The position before it, as a FEN (none in a game not replayed or a
    /// spelling walk).
    pub position: Option<String>,
}

impl std::fmt::Display for Stop<'_> {
    /// `12... Nf6 is not legal (position: FEN)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.ply.label(Side::White), self.why)?;
        if let Some(p) = &self.position {
            write!(f, " (position: {p})")?;
        }
        Ok(())
    }
}

/// How a walk plays each ply: one implementation per kind of walk, so that
/// each walk is compiled for its own work.
trait Player: Clone {
    /// Plays the `index`-th ply of the walk; on an error the position is
    /// as it was.
    fn play(&mut self, ply: &IrPly, index: usize) -> Result<(Ply, Spelling), String>;
    /// The position, as a FEN, for messages.
    fn fen(&self) -> Option<String>;
}

/// Checks each ply's own move on the rules' board.
#[derive(Clone)]
struct Checking(Position, bool);

impl Player for Checking {
    #[inline]
    fn play(&mut self, ply: &IrPly, _: usize) -> Result<(Ply, Spelling), String> {
        play_given(&mut self.0, &ply.mv).map(|mv| (mv, Spelling::default()))
    }
    fn fen(&self) -> Option<String> {
        Some(self.0.fen(self.1))
    }
}

/// Resolves written moves on the rules' board.
struct Resolving<'w, W>(Position, bool, &'w [W]);

/// A move as written, with the check its text claims (`+`, `++`, `#`):
/// where it claims one, [`Replay::resolve`]'s step says in its spelling
/// ([`Spelling::check`]) whether the move gives check (`Check`, or `Mate`
/// where mate is claimed and given), for a reader to tell a false sign;
/// elsewhere the step's spelling shows nothing.
pub trait WrittenMove: Borrow<Written> {
    /// The check the text claims; none unless a reader keeps it.
    fn claimed_check(&self) -> Check {
        Check::None
    }
}

impl WrittenMove for Written {}

impl<W> Clone for Resolving<'_, W> {
    fn clone(&self) -> Self {
        Resolving(self.0, self.1, self.2)
    }
}

impl<W: WrittenMove> Player for Resolving<'_, W> {
    #[inline]
    fn play(&mut self, _: &IrPly, index: usize) -> Result<(Ply, Spelling), String> {
        let w = self
            .2
            .get(index)
            .ok_or_else(|| "a ply without its written move".to_string())?;
        let claimed = w.claimed_check();
        let mv = play_written(&mut self.0, self.1, w.borrow())?;
        // (Whether it is mate asked only of a move that claims one.)
        let check = match claimed {
            Check::None => Check::None,
            Check::Mate => self.0.check(),
            _ if self.0.in_check() => Check::Check,
            _ => Check::None,
        };
        Ok((
            mv,
            Spelling {
                check,
                ..Spelling::default()
            },
        ))
    }
    fn fen(&self) -> Option<String> {
        Some(self.0.fen(self.1))
    }
}

impl Player for Position {
    #[inline]
    fn play(&mut self, ply: &IrPly, _: usize) -> Result<(Ply, Spelling), String> {
        play_spelled(self, &ply.mv)
    }
    fn fen(&self) -> Option<String> {
        None
    }
}

/// A game not replayed: its claims, or the written moves as claims.
struct Unreplayed<'w, W>(Option<&'w [W]>);

impl<W> Clone for Unreplayed<'_, W> {
    fn clone(&self) -> Self {
        Unreplayed(self.0)
    }
}

impl<W: Borrow<Written>> Player for Unreplayed<'_, W> {
    fn play(&mut self, ply: &IrPly, index: usize) -> Result<(Ply, Spelling), String> {
        let Some(written) = self.0 else {
            return as_claimed(&ply.mv);
        };
        let w = written
            .get(index)
            .ok_or_else(|| "a ply without its written move".to_string())?;
        Ok(match as_written(w.borrow(), Check::None, ply.side)? {
            Ply::Claimed(c) => (Ply::Move(c.meaning()), c.spelling()),
            other => (other, Spelling::default()),
        })
    }
    fn fen(&self) -> Option<String> {
        None
    }
}

impl<'g> Replay<'g> {
    /// The start position of a chess game (its setup's FEN, or the standard
    /// start), unless it was not replayed.
    fn start_of(game: &'g Game) -> Result<(Option<Position>, bool), String> {
        let board = board_of(&game.variant)
            .ok_or_else(|| format!("a {} game is not a chess game", game.family().name()))?;
        let start = match (board.validated, fen_of(&game.setup)?) {
            (false, _) => None,
            (true, Some(fen)) => Some(fen.position()?),
            (true, None) => Some(Position::start()),
        };
        Ok((start, board.chess960))
    }

    /// The replay of a chess game's moves that checks each of them.
    pub fn new(game: &'g Game) -> Result<Replay<'g>, String> {
        let (start, chess960) = Replay::start_of(game)?;
        Ok(Replay::start(&game.moves, start, chess960))
    }

    /// The replay of a chess game's moves, known legal, that says how each
    /// is spelled (a writer's).
    pub fn spelling(game: &'g Game) -> Result<Replay<'g>, String> {
        let (start, chess960) = Replay::start_of(game)?;
        Ok(Replay {
            line: &game.moves,
            start: start.map_or(Start::Unreplayed, Start::Spelling),
            chess960,
            variations: true,
        })
    }

    /// The replay of a line from a position of the rules' board (a
    /// reader's, with [`Replay::resolve`]); `None` walks a line that is not
    /// replayed.
    pub fn start(line: &'g Line, position: Option<Position>, chess960: bool) -> Replay<'g> {
        Replay {
            line,
            start: position.map_or(Start::Unreplayed, Start::Rules),
            chess960,
            variations: true,
        }
    }

    /// Walks the main line alone, past the variations.
    pub fn main_line(mut self) -> Replay<'g> {
        self.variations = false;
        self
    }

    /// Walks every ply, taking its own move (checked on the rules' board,
    /// or spelled), and gives `visit` each step in walking order.
    pub fn walk(mut self, mut visit: impl FnMut(Step<'g>)) -> Result<(), Stop<'g>> {
        let mut index = 0;
        match std::mem::replace(&mut self.start, Start::Unreplayed) {
            Start::Rules(board) => self.line_walk(
                self.line,
                &mut Checking(board, self.chess960),
                &mut index,
                &mut visit,
            ),
            Start::Spelling(mut squares) => {
                self.line_walk(self.line, &mut squares, &mut index, &mut visit)
            }
            Start::Unreplayed => {
                let mut player = Unreplayed::<Written>(None);
                self.line_walk(self.line, &mut player, &mut index, &mut visit)
            }
        }
    }

    /// Walks every ply, resolving `written[k]` as the move of the `k`-th
    /// ply of the walk (a reader's), and gives `visit` each step. Returns
    /// the position after the line walked (its variations walked from
    /// theirs), where it is replayed: a run of a long record hands it to
    /// the next ([`crate::container::Runs`]).
    pub fn resolve<W: WrittenMove>(
        mut self,
        written: &[W],
        mut visit: impl FnMut(Step<'g>),
    ) -> Result<Option<Position>, Stop<'g>> {
        let mut index = 0;
        match std::mem::replace(&mut self.start, Start::Unreplayed) {
            Start::Rules(board) => {
                let mut player = Resolving(board, self.chess960, written);
                self.line_walk(self.line, &mut player, &mut index, &mut visit)?;
                Ok(Some(player.0))
            }
            Start::Spelling(_) | Start::Unreplayed => self
                .line_walk(
                    self.line,
                    &mut Unreplayed(Some(written)),
                    &mut index,
                    &mut visit,
                )
                .map(|()| None),
        }
    }

    fn line_walk<P: Player>(
        &self,
        line: &'g Line,
        player: &mut P,
        index: &mut usize,
        visit: &mut impl FnMut(Step<'g>),
    ) -> Result<(), Stop<'g>> {
        for ply in &line.plies {
            let k = *index;
            *index += 1;
            let branches = self.variations && !ply.variations.is_empty();
            // Variations start from the position before the ply.
            let before = branches.then(|| player.clone());
            match player.play(ply, k) {
                Ok((mv, spelling)) => visit(Step { ply, mv, spelling }),
                Err(why) => {
                    return Err(Stop {
                        ply,
                        index: k,
                        why,
                        position: player.fen(),
                    })
                }
            }
            if let Some(mut before) = before {
                let last = ply.variations.len() - 1;
                for (i, v) in ply.variations.iter().enumerate() {
                    if i == last {
                        self.line_walk(v, &mut before, index, visit)?;
                    } else {
                        self.line_walk(v, &mut before.clone(), index, visit)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Sets the move of every ply of a line and its variations, in the order a
/// [`Replay`] walks them, to what `f` gives for it: how readers put the
/// moves they resolved or claimed into the game.
pub fn fill<E>(line: &mut Line, f: &mut impl FnMut(&IrPly) -> Result<Ply, E>) -> Result<(), E> {
    for ply in &mut line.plies {
        ply.mv = IrMove::Chess(f(ply)?);
        for v in &mut ply.variations {
            fill(v, f)?;
        }
    }
    Ok(())
}

/// Checks a chess game that comes with its moves resolved (from JSON): every
/// move must be legal where it stands and mean what its fields say; in a
/// game not replayed, every claim must be on the board. What writers spell
/// beyond that is derived when writing.
pub fn check_game(game: &Game) -> Result<(), String> {
    Replay::new(game)?
        .walk(|_| ())
        .map_err(|stop| stop.to_string())
}

/// The positions of a replayed chess game's main line as FENs: the start,
/// then the position after each ply, as far as its moves are legal; `None`
/// for a game not replayed.
pub fn main_line_fens(game: &Game) -> Option<Vec<String>> {
    let (Some(mut pos), chess960) = Replay::start_of(game).ok()? else {
        return None;
    };
    let mut fens = vec![pos.fen(chess960)];
    for ply in &game.moves.plies {
        if play_given(&mut pos, &ply.mv).is_err() {
            break;
        }
        fens.push(pos.fen(chess960));
    }
    Some(fens)
}

/// The FEN after every ply of a replayed chess game, in the order the
/// container writes its plies ([`crate::family::positions`]); none for a
/// game not replayed.
pub fn positions(game: &Game) -> Vec<Option<String>> {
    let (start, chess960) = Replay::start_of(game).unwrap_or((None, false));
    crate::family::hooks::positions_in_order(
        &game.moves,
        start,
        &mut |pos, plies, i| play_given(pos, &plies[i].mv).is_ok(),
        &|pos, _| pos.fen(chess960),
    )
}

/// A FEN of a position (Shredder castling letters in Chess960).
pub fn fen(board: &cz::Board, chess960: bool) -> String {
    if chess960 {
        format!("{board:#}")
    } else {
        format!("{board}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(s: &str) -> Written {
        let b = s.as_bytes();
        let to = Square::parse(&s[s.len() - 2..]).unwrap();
        let role = Role::from_letter(b[0] as char)
            .filter(|_| b[0].is_ascii_uppercase())
            .unwrap_or(Role::Pawn);
        let file = (s.len() == 4 && b[1].is_ascii_lowercase()).then(|| b[1] - b'a');
        Written::San {
            role,
            file,
            rank: None,
            capture: false,
            to,
            promotion: None,
        }
    }

    #[test]
    fn resolves_and_disambiguates() {
        let b = Position::of(&parse_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap());
        assert!(resolve(&b, false, &san("Nd2"))
            .unwrap_err()
            .starts_with("ambiguous"));
        let mv = resolve(&b, false, &san("Nbd2")).unwrap();
        let (_, sp) = play(&mut b.clone(), mv);
        assert_eq!((sp.file, sp.rank), (Some(1), None));
    }

    #[test]
    fn x_fen_castling_becomes_shredder() {
        let b = parse_fen("1k6/8/8/8/8/8/8/RK4R1 w KQ - 0 1").unwrap();
        assert_eq!(fen(&b, true), "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1");
        let mut p = Position::of(&b);
        assert_eq!(p.fen(true), "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1");
        let mv = resolve(&p, true, &Written::Castle(Wing::King)).unwrap();
        let (m, _) = play(&mut p, mv);
        assert_eq!(p.fen(true), "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1");
        assert_eq!(m.castle, Some(Wing::King));
    }

    #[test]
    fn double_check_and_mate() {
        // Fool's mate.
        let mut b = cz::Board::default();
        for uci in ["f2f3", "e7e5", "g2g4"] {
            b.play(uci.parse().unwrap());
        }
        let (_, sp) = play(&mut Position::of(&b), "d8h4".parse().unwrap());
        assert_eq!(sp.check, Check::Mate);
        // Discovered double check: the knight moves off the e-file.
        let b = parse_fen("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1").unwrap();
        let (_, sp) = play(&mut Position::of(&b), "e4d6".parse().unwrap());
        assert_eq!(sp.check, Check::Double);
    }

    /// What the rules' board says of a legal move, from its move generator
    /// alone: the squares standard notation shows and the check state.
    fn reference(board: &cz::Board, mv: cz::Move) -> Spelling {
        let piece = board.piece_on(mv.from).unwrap();
        let castle = board.colors(board.side_to_move()).has(mv.to);
        let capture = board.occupied().has(mv.to) && !castle
            || (piece == cz::Piece::Pawn && mv.from.file() != mv.to.file());
        let (mut file, mut rank) = (None, None);
        if piece == cz::Piece::Pawn {
            file = capture.then_some(mv.from.file() as u8);
        } else if !castle && piece != cz::Piece::King {
            let mut rivals = Vec::new();
            board.generate_moves(|ms| {
                for m in ms {
                    if m.to == mv.to && m.from != mv.from && ms.piece == piece {
                        rivals.push(m.from);
                    }
                }
                false
            });
            rivals.dedup();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|r| r.file() == mv.from.file());
                let same_rank = rivals.iter().any(|r| r.rank() == mv.from.rank());
                if !same_file {
                    file = Some(mv.from.file() as u8);
                } else if !same_rank {
                    rank = Some(mv.from.rank() as u8);
                } else {
                    file = Some(mv.from.file() as u8);
                    rank = Some(mv.from.rank() as u8);
                }
            }
        }
        let mut after = board.clone();
        after.play_unchecked(mv);
        let check = match (after.checkers().len(), after.status()) {
            (0, _) => Check::None,
            (_, cz::GameStatus::Won) => Check::Mate,
            (1, _) => Check::Check,
            _ => Check::Double,
        };
        Spelling { file, rank, check }
    }

    /// Checks every legal move of a position: the light board spells it as
    /// the move generator says, and plays it to the same position.
    fn check_position(board: &cz::Board, seen: &mut [usize; 4]) {
        let mut moves = Vec::new();
        board.generate_moves(|ms| {
            moves.extend(ms);
            false
        });
        for &mv in &moves {
            let mut pos = Position::of(board);
            let (m, spelling) = play(&mut pos, mv);
            assert_eq!(spelling, reference(board, mv), "{board} {mv}");
            seen[0] += 1;
            seen[1] += usize::from(spelling.check == Check::Mate);
            seen[2] += usize::from(spelling.check == Check::Double);
            seen[3] +=
                usize::from(m.role != Role::Pawn && spelling.file.or(spelling.rank).is_some());
            let mut after = board.clone();
            after.play_unchecked(mv);
            assert_eq!(pos, Position::of(&after), "{board} {mv} {m:?}");
        }
    }

    #[test]
    fn the_light_board_spells_as_the_move_generator_says() {
        // Moves, mates, double checks and disambiguated piece moves seen.
        let mut seen = [0; 4];
        // Pins, double and discovered checks, mates by every piece, mates
        // that a block, a capture or an en passant capture would answer.
        for fen in [
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "6k1/5ppp/8/8/8/8/1r3PPP/R5K1 w - - 0 1",
            "7k/8/8/3pP3/8/8/8/K6B w - d6 0 1",
            "8/8/8/2k5/3pP3/8/8/K7 b - e3 0 1",
            "8/8/3k4/2pP4/8/8/8/K7 w - c6 0 1",
            "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1",
            "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "3k4/8/8/8/8/1N3N2/8/1N1K1N2 w - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
            "k7/2P5/K7/8/8/8/8/8 w - - 0 1",
            "2r3k1/1P6/8/8/8/8/8/K7 w - - 0 1",
            "4r1k1/8/8/8/8/8/3PPP2/2B1K1N1 b - - 0 1",
        ] {
            let board = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            check_position(&board, &mut seen);
        }
        // Random games from the standard start and Chess960 starts.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for game in 0..60 {
            let mut board = if game % 3 == 0 {
                cz::Board::chess960_startpos((next() % 960) as u32)
            } else {
                cz::Board::default()
            };
            for _ in 0..160 {
                if board.status() != cz::GameStatus::Ongoing {
                    break;
                }
                check_position(&board, &mut seen);
                let mut moves = Vec::new();
                board.generate_moves(|ms| {
                    moves.extend(ms);
                    false
                });
                // Captures and checks first now and then, to reach endings.
                let mv = moves[(next() % moves.len() as u64) as usize];
                board.play_unchecked(mv);
            }
        }
        eprintln!("moves, mates, double checks, disambiguations: {seen:?}");
        assert!(
            seen[0] > 100_000 && seen[1] > 100 && seen[2] > 40 && seen[3] > 1000,
            "{seen:?}"
        );
    }

    /// A game read by the pgn reader (which replays it).
    fn game(text: &str) -> Game {
        crate::family::chess::pgn::read(text, &crate::codec::ReadOptions::default())
            .unwrap_or_else(|e| panic!("{e:?}"))
            .game
    }

    #[test]
    fn the_replay_walks_in_written_order_and_spells_where_each_move_stands() {
        // 1. e4 (1. d4 d5 (1... Nf6 2. Nd2 e5 3. Ngf3)) 1... e5: variations
        // start from the position before their ply, nested ones too.
        let g = game(
            "1. e4 (1. d4 d5 (1... Nf6 2. Nd2 e5 3. Ngf3)) 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *",
        );
        let mut walked = Vec::new();
        Replay::spelling(&g)
            .unwrap()
            .walk(|step| walked.push((step.ply.label(Side::White), step.mv, step.spelling)))
            .unwrap();
        let labels: Vec<&str> = walked.iter().map(|(l, ..)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "1.", "1.", "1...", "1...", "2.", "2...", "3.", "1...", "2.", "2...", "3.", "3...",
                "4."
            ]
        );
        // Ngf3: the knight on d2 could go there too.
        let (_, mv, spelling) = walked[6];
        assert_eq!((spelling.file, spelling.rank), (Some(6), None), "{mv:?}");
        let (_, mv, spelling) = walked[12];
        assert!(matches!(mv, Ply::Move(m) if m.capture), "{mv:?}");
        assert_eq!(spelling.check, Check::Mate);
        // The main line alone; a check walk yields no spelling.
        let mut main = 0;
        Replay::spelling(&g)
            .unwrap()
            .main_line()
            .walk(|_| main += 1)
            .unwrap();
        assert_eq!(main, 7);
        let mut checked = Vec::new();
        Replay::new(&g)
            .unwrap()
            .walk(|s| checked.push((s.mv, s.spelling)))
            .unwrap();
        assert!(checked.iter().all(|(_, s)| *s == Spelling::default()));
        let moves: Vec<Ply> = walked.iter().map(|(_, mv, _)| *mv).collect();
        assert_eq!(checked.iter().map(|(m, _)| *m).collect::<Vec<_>>(), moves);
    }

    #[test]
    fn the_replay_resolves_written_moves_and_stops_at_a_wrong_one() {
        // The shape of a game as a reader has it before its moves are
        // resolved: placeholders where the moves go.
        let mut g = game("1. e4 (1. d4) 1... e5 2. Nf3 *");
        fill(&mut g.moves, &mut |_| Ok::<_, ()>(Ply::Null)).unwrap();
        let written = [san("e4"), san("d4"), san("e5"), san("Nf3")];
        let mut moves = Vec::new();
        Replay::start(&g.moves, Some(Position::start()), false)
            .resolve(&written, |step| moves.push(step.mv))
            .unwrap();
        let to: Vec<String> = moves
            .iter()
            .map(|m| match m {
                Ply::Move(m) => format!("{}{}", m.from.unwrap(), m.to),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(to, ["e2e4", "d2d4", "e7e5", "g1f3"]);
        // The second move of the variation's line is illegal: the walk
        // stops there, and says where, why and in which position.
        let wrong = [san("e4"), san("d5"), san("e5"), san("Nf3")];
        let stop = Replay::start(&g.moves, Some(Position::start()), false)
            .resolve(&wrong, |_| ())
            .unwrap_err();
        assert_eq!(
            (stop.index, stop.ply.label(Side::White)),
            (1, "1.".to_string())
        );
        assert_eq!(stop.why, "illegal move");
        assert_eq!(
            stop.position.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
        // Resolved moves are put in the game, and then check as given.
        let mut resolved = moves.into_iter();
        fill(&mut g.moves, &mut |_| resolved.next().ok_or(())).unwrap();
        assert!(check_game(&g).is_ok());
        // A given move that is not legal where it stands stops the check.
        if let IrMove::Chess(Ply::Move(m)) = &mut g.moves.plies[1].mv {
            m.to = Square::parse("e4").unwrap();
        }
        let e = check_game(&g).unwrap_err();
        assert!(e.starts_with("1... e7e4 is not legal (position: "), "{e}");
    }

    #[test]
    fn a_game_not_replayed_is_walked_as_its_claims() {
        let mut g = game("1. e4 e5 2. Nf3 *");
        g.variant = crate::family::any::Variant::Chess(ChessBoard {
            chess960: false,
            validated: false,
        });
        let claim = as_written(&san("Nbd2"), Check::Check, Side::White).unwrap();
        g.moves.plies[2].mv = IrMove::Chess(claim);
        let mut spelled = Vec::new();
        Replay::spelling(&g)
            .unwrap()
            .walk(|s| spelled.push(s.spelling))
            .unwrap();
        assert_eq!(
            spelled[2],
            Spelling {
                file: Some(1),
                rank: None,
                check: Check::Check
            }
        );
        // A claim off the board is refused.
        if let IrMove::Chess(Ply::Claimed(c)) = &mut g.moves.plies[2].mv {
            c.file = Some(9);
        }
        assert!(check_game(&g).is_err());
    }

    #[test]
    fn legal_agrees_with_the_move_generator() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = 0;
        for game in 0..10 {
            let mut board = if game % 4 == 0 {
                cz::Board::chess960_startpos((next() % 960) as u32)
            } else {
                cz::Board::default()
            };
            for _ in 0..120 {
                if board.status() != cz::GameStatus::Ongoing {
                    break;
                }
                let us = board.side_to_move();
                for from in board.colors(us) {
                    let piece = board.piece_on(from).unwrap();
                    for to in cz::BitBoard::FULL {
                        for promotion in [None, Some(cz::Piece::Queen), Some(cz::Piece::King)] {
                            let mv = cz::Move {
                                from,
                                to,
                                promotion,
                            };
                            assert_eq!(
                                Position::of(&board).legal(mv, piece),
                                board.is_legal(mv),
                                "{board} {mv}"
                            );
                            compared += 1;
                        }
                    }
                }
                let mut moves = Vec::new();
                board.generate_moves(|ms| {
                    moves.extend(ms);
                    false
                });
                board.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            }
        }
        assert!(compared > 500_000, "{compared}");
    }
}
