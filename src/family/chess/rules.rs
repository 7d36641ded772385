//! Chess rules through cozy-chess: the start position a game's tags give,
//! resolving a written move against the legal moves, and describing a move
//! the way writers need it (disambiguation, check state).

use cozy_chess as cz;

use crate::family::chess::{Board as ChessBoard, Check, Move, Role, Square, Wing};
use crate::ir::Tag;

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
/// tags. Games of variants kifu does not play are refused.
pub fn start(
    tags: &[Tag],
) -> Result<(ChessBoard, Option<String>, cz::Board), (String, &'static str)> {
    let tag = |name: &str| tags.iter().find(|t| t.name.eq_ignore_ascii_case(name));
    let variant = tag("Variant").map_or(String::new(), |t| t.value.trim().to_ascii_lowercase());
    let chess960 = if STANDARD.contains(&variant.as_str()) {
        false
    } else if CHESS960.contains(&variant.as_str()) {
        true
    } else {
        return Err((
            format!(
                "variant `{}` is not played by kifu (standard chess and Chess960 only)",
                tag("Variant").map_or("", |t| t.value.as_str())
            ),
            "Variant",
        ));
    };
    let board = ChessBoard {
        chess960,
        validated: true,
    };
    match tag("FEN") {
        None => Ok((board, None, start_position())),
        Some(t) => {
            let pos = parse_fen(&t.value).map_err(|e| (e, "FEN"))?;
            let fen = format!("{pos:#}");
            Ok((board, Some(fen), pos))
        }
    }
}

/// The side to move in a position.
pub fn side_to_move(board: &cz::Board) -> crate::ir::Side {
    match board.side_to_move() {
        cz::Color::White => crate::ir::Side::White,
        cz::Color::Black => crate::ir::Side::Black,
    }
}

/// The standard start position (built once: building a board costs more
/// than replaying a move).
pub fn start_position() -> cz::Board {
    static START: std::sync::LazyLock<cz::Board> = std::sync::LazyLock::new(cz::Board::default);
    START.clone()
}

/// Reads a FEN with standard (`KQkq`), X-FEN or Shredder (`HAha`) castling
/// rights; the move counters may be missing.
pub fn parse_fen(fen: &str) -> Result<cz::Board, String> {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 4 {
        return Err(format!("FEN `{fen}` has fewer than four fields"));
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
            }
            .ok_or_else(|| {
                format!("FEN `{fen}`: castling right `{c}` has no rook to castle with")
            })?;
            let letter = char::from(b'a' + file as u8);
            out.push(if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        fields[2] = out;
    }
    cz::Board::from_fen(&fields.join(" "), true)
        .map_err(|e| format!("FEN `{fen}` is not a legal position: {e:?}"))
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

/// The legal move a written move means on a board, or why there is none.
pub fn resolve(board: &cz::Board, chess960: bool, w: &Written) -> Result<cz::Move, String> {
    let us = board.side_to_move();
    let king = board.king(us);
    match *w {
        Written::Null => Err("a null move is not a move".to_string()),
        Written::Castle(wing) => {
            let rights = board.castle_rights(us);
            let file = match wing {
                Wing::King => rights.short,
                Wing::Queen => rights.long,
            };
            let mv = file.map(|f| cz::Move {
                from: king,
                to: cz::Square::new(f, king.rank()),
                promotion: None,
            });
            match mv {
                Some(mv) if board.is_legal(mv) => Ok(mv),
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
            // Standard chess writes castling as the king's two-square step.
            if from == king && !chess960 && board.piece_on(from) == Some(cz::Piece::King) {
                let df = to.file() as i32 - from.file() as i32;
                if df.abs() == 2 && to.rank() == from.rank() {
                    let rights = board.castle_rights(us);
                    if let Some(f) = if df > 0 { rights.short } else { rights.long } {
                        to = cz::Square::new(f, from.rank());
                    }
                }
            }
            let mv = cz::Move {
                from,
                to,
                promotion: promotion.map(cz_role),
            };
            if board.is_legal(mv) {
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
            let mut candidates = board.colored_pieces(us, piece) & reachers(board, piece, target);
            if let Some(f) = file {
                candidates &= cz::File::index(usize::from(f)).bitboard();
            }
            if let Some(r) = rank {
                candidates &= cz::Rank::index(usize::from(r)).bitboard();
            }
            // A king "taking" its own rook is castling, never Kxh1.
            if piece == cz::Piece::King && board.color_on(target) == Some(us) {
                candidates = cz::BitBoard::EMPTY;
            }
            for sq in candidates {
                let mv = cz::Move {
                    from: sq,
                    to: target,
                    promotion: promo,
                };
                if !board.is_legal(mv) {
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
/// says and nothing the rules would derive. Castling puts the king on the
/// rook's square of a standard start. Coordinate moves need the board to be
/// told apart (which piece? castling?) and are refused.
pub fn as_written(
    w: &Written,
    check: Check,
    side: crate::ir::Side,
) -> Result<crate::family::chess::Ply, String> {
    use crate::family::chess::Ply;
    Ok(match *w {
        Written::Null => Ply::Null,
        Written::Castle(wing) => {
            let rank = if side == crate::ir::Side::White { 0 } else { 7 };
            let file = if wing == Wing::King { 7 } else { 0 };
            let mut m = Move::new(Role::King, Square::new(file, rank));
            m.castle = Some(wing);
            m.check = check;
            Ply::Move(m)
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
        } => {
            let mut m = Move::new(role, to);
            if let (Some(f), Some(r)) = (file, rank) {
                m.from = Some(Square::new(f, r));
            }
            m.show_file = file;
            m.show_rank = rank;
            m.capture = capture;
            m.promotion = promotion;
            m.check = check;
            Ply::Move(m)
        }
    })
}

/// The warning of a game converted without replaying its moves.
pub const UNREPLAYED: &str = "moves not replayed (--no-validate): legality, ambiguity and \
                              check marks are as written, unchecked";

/// The squares from which a piece of the kind could reach `target` on this
/// board, ignoring pins and whose turn it is: a cheap filter before the
/// legal move generation.
fn reachers(board: &cz::Board, piece: cz::Piece, target: cz::Square) -> cz::BitBoard {
    let occupied = board.occupied();
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
        cz::Piece::Pawn => {
            target.file().bitboard() | cz::get_pawn_attacks(target, !board.side_to_move())
        }
    }
}

/// Describes a legal move for the IR (role, capture, castling, en passant,
/// the disambiguation standard notation needs, and the check it gives) and
/// plays it on the board.
pub fn play(board: &mut cz::Board, mv: cz::Move) -> Move {
    let us = board.side_to_move();
    let role = board.piece_on(mv.from).map_or(Role::Pawn, ir_role);
    let castle = (role == Role::King && board.color_on(mv.to) == Some(us)).then(|| {
        if mv.to.file() > mv.from.file() {
            Wing::King
        } else {
            Wing::Queen
        }
    });
    let en_passant =
        role == Role::Pawn && mv.from.file() != mv.to.file() && board.piece_on(mv.to).is_none();
    let capture = castle.is_none() && (board.piece_on(mv.to).is_some() || en_passant);
    let mut out = Move::new(role, ir_square(mv.to));
    out.from = Some(ir_square(mv.from));
    out.capture = capture;
    out.castle = castle;
    out.en_passant = en_passant;
    out.promotion = mv.promotion.map(ir_role);
    if role == Role::Pawn {
        if capture {
            out.show_file = Some(mv.from.file() as u8);
        }
    } else if castle.is_none() {
        // Other pieces of the same kind that could go to the same square
        // (usually none reaches it). A side has one king: never a rival.
        let piece = cz_role(role);
        let (mut same_file, mut same_rank, mut rivals) = (false, false, false);
        let others =
            board.colored_pieces(us, piece) & !mv.from.bitboard() & reachers(board, piece, mv.to);
        for sq in others {
            let rival = cz::Move {
                from: sq,
                to: mv.to,
                promotion: None,
            };
            if board.is_legal(rival) {
                rivals = true;
                same_file |= sq.file() == mv.from.file();
                same_rank |= sq.rank() == mv.from.rank();
            }
        }
        if rivals {
            if !same_file {
                out.show_file = Some(mv.from.file() as u8);
            } else if !same_rank {
                out.show_rank = Some(mv.from.rank() as u8);
            } else {
                out.show_file = Some(mv.from.file() as u8);
                out.show_rank = Some(mv.from.rank() as u8);
            }
        }
    }
    board.play_unchecked(mv);
    out.check = check_state(board);
    out
}

/// The check state of a position for the side to move.
pub fn check_state(board: &cz::Board) -> Check {
    match board.checkers().len() {
        0 => Check::None,
        n => {
            if board.status() == cz::GameStatus::Won {
                Check::Mate
            } else if n >= 2 {
                Check::Double
            } else {
                Check::Check
            }
        }
    }
}

/// Checks a chess game that comes with its moves resolved (from JSON): every
/// move must be legal where it stands and its derived fields must be what the
/// rules derive, so that writers spell exactly what the moves mean.
pub fn check_game(game: &crate::ir::Game) -> Result<(), String> {
    use crate::family::{chess::Ply, Move as IrMove, Setup, Variant};
    use crate::ir::Line;
    let Variant::Chess(variant) = game.variant else {
        return Err("not a chess game".to_string());
    };
    if !variant.validated {
        return Ok(());
    }
    let start = match &game.setup {
        Some(Setup::Chess(fen)) => parse_fen(fen)?,
        Some(_) => return Err("a setup of another game".to_string()),
        None => start_position(),
    };
    fn line(l: &Line, mut board: cz::Board) -> Result<(), String> {
        for ply in &l.plies {
            let before = (!ply.variations.is_empty()).then(|| board.clone());
            let number = || ply.label();
            match &ply.mv {
                IrMove::Chess(Ply::Null) => {
                    board = board
                        .null_move()
                        .ok_or_else(|| format!("{} a null move while in check", number()))?;
                }
                IrMove::Chess(Ply::Move(m)) => {
                    let from = m.from.ok_or_else(|| {
                        format!("{} a move without its square of departure", number())
                    })?;
                    let mv = cz::Move {
                        from: cz_square(from),
                        to: cz_square(m.to),
                        promotion: m.promotion.map(cz_role),
                    };
                    if !board.is_legal(mv) {
                        return Err(format!(
                            "{} {from}{} is not legal (position: {board})",
                            number(),
                            m.to
                        ));
                    }
                    let derived = play(&mut board, mv);
                    if derived != *m {
                        return Err(format!(
                            "{} {from}{}: its fields do not match the position",
                            number(),
                            m.to
                        ));
                    }
                }
                _ => return Err(format!("{} a move of another game", number())),
            }
            if let Some(before) = before {
                for v in &ply.variations {
                    line(v, before.clone())?;
                }
            }
        }
        Ok(())
    }
    line(&game.moves, start)
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
        let b = parse_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
        assert!(resolve(&b, false, &san("Nd2"))
            .unwrap_err()
            .starts_with("ambiguous"));
        let mv = resolve(&b, false, &san("Nbd2")).unwrap();
        let m = play(&mut b.clone(), mv);
        assert_eq!((m.show_file, m.show_rank), (Some(1), None));
    }

    #[test]
    fn x_fen_castling_becomes_shredder() {
        let b = parse_fen("1k6/8/8/8/8/8/8/RK4R1 w KQ - 0 1").unwrap();
        assert_eq!(fen(&b, true), "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1");
        let mv = resolve(&b, true, &Written::Castle(Wing::King)).unwrap();
        let m = play(&mut b.clone(), mv);
        assert_eq!(m.castle, Some(Wing::King));
    }

    #[test]
    fn double_check_and_mate() {
        // Fool's mate.
        let mut b = cz::Board::default();
        for uci in ["f2f3", "e7e5", "g2g4"] {
            b.play(uci.parse().unwrap());
        }
        let m = play(&mut b.clone(), "d8h4".parse().unwrap());
        assert_eq!(m.check, Check::Mate);
        // Discovered double check: the knight moves off the e-file.
        let b = parse_fen("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1").unwrap();
        let m = play(&mut b.clone(), "e4d6".parse().unwrap());
        assert_eq!(m.check, Check::Double);
    }
}
