//! Chess rules through cozy-chess: the start position a game's tags give,
//! resolving a written move against the legal moves, and the one replay of
//! a game ([`Replay`]) that readers, the JSON check and writers share: it
//! resolves or checks each move and derives how standard notation spells it
//! (disambiguation, check state).

use cozy_chess as cz;

use crate::family::chess::{
    board_of, fen_of, ply_of, Board as ChessBoard, Check, Claim, Move, Ply, Role, Spelling, Square,
    Wing,
};
use crate::family::Move as IrMove;
use crate::ir::{Game, Line, Ply as IrPly, Side, Tag};

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
pub fn side_to_move(board: &cz::Board) -> Side {
    match board.side_to_move() {
        cz::Color::White => Side::White,
        cz::Color::Black => Side::Black,
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

/// What a legal move does on a board, before it is played: the piece,
/// squares, capture, promotion, castling and en passant.
fn describe(board: &cz::Board, mv: cz::Move) -> Move {
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
    Move {
        role,
        from: Some(ir_square(mv.from)),
        to: ir_square(mv.to),
        capture: castle.is_none() && (board.piece_on(mv.to).is_some() || en_passant),
        promotion: mv.promotion.map(ir_role),
        castle,
        en_passant,
    }
}

/// The part of a legal move's square of departure that standard notation
/// shows, before the move is played: a capturing pawn's file; for a piece
/// that another of its kind could replace, the file, else the rank, else
/// both.
fn shown_origin(board: &cz::Board, mv: cz::Move, m: &Move) -> (Option<u8>, Option<u8>) {
    let (file, rank) = (mv.from.file() as u8, mv.from.rank() as u8);
    if m.role == Role::Pawn {
        return (m.capture.then_some(file), None);
    }
    if m.castle.is_some() {
        return (None, None);
    }
    // Other pieces of the same kind that could go to the same square
    // (usually none reaches it). A side has one king: never a rival.
    let piece = cz_role(m.role);
    let us = board.side_to_move();
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
    match (rivals, same_file, same_rank) {
        (false, _, _) => (None, None),
        (true, false, _) => (Some(file), None),
        (true, true, false) => (None, Some(rank)),
        (true, true, true) => (Some(file), Some(rank)),
    }
}

/// Plays a legal move whose meaning is `m`, with its spelling when `spell`.
fn play_move(board: &mut cz::Board, mv: cz::Move, m: &Move, spell: bool) -> Spelling {
    if !spell {
        board.play_unchecked(mv);
        return Spelling::default();
    }
    let (file, rank) = shown_origin(board, mv, m);
    board.play_unchecked(mv);
    Spelling {
        file,
        rank,
        check: check_state(board),
    }
}

/// Describes a legal move and plays it on the board: what it means, and
/// how standard notation spells it there.
pub fn play(board: &mut cz::Board, mv: cz::Move) -> (Move, Spelling) {
    let m = describe(board, mv);
    let spelling = play_move(board, mv, &m, true);
    (m, spelling)
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

/// Passes the move, unless the side to move is in check.
fn play_null(board: &mut cz::Board) -> Result<(Ply, Spelling), String> {
    *board = board
        .null_move()
        .ok_or_else(|| "a null move while in check".to_string())?;
    Ok((Ply::Null, Spelling::default()))
}

/// Resolves a written move on the board and plays it.
fn play_written(
    board: &mut cz::Board,
    chess960: bool,
    w: &Written,
    spell: bool,
) -> Result<(Ply, Spelling), String> {
    if *w == Written::Null {
        return play_null(board);
    }
    let mv = resolve(board, chess960, w)?;
    let m = describe(board, mv);
    let spelling = play_move(board, mv, &m, spell);
    Ok((Ply::Move(m), spelling))
}

/// Checks a ply's own move on the board (it must be legal there and mean
/// what its fields say) and plays it.
fn play_given(board: &mut cz::Board, mv: &IrMove, spell: bool) -> Result<(Ply, Spelling), String> {
    let m = match *ply_of(mv)? {
        Ply::Null => return play_null(board),
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
    if !board.is_legal(mv) {
        return Err(format!("{from}{} is not legal", m.to));
    }
    if describe(board, mv) != m {
        return Err(format!(
            "{from}{}: its fields do not match the position",
            m.to
        ));
    }
    let spelling = play_move(board, mv, &m, spell);
    Ok((Ply::Move(m), spelling))
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
/// branch. Each step either resolves a written move
/// ([`Replay::next_written`], readers) or checks the ply's own move (the
/// [`Iterator`], the JSON check and writers), plays it, and yields the move
/// with how standard notation spells it where it stands. A game that was
/// not replayed (`--no-validate`: [`Board::validated`] false) is walked
/// without a board: each step yields a [`Claim`]'s meaning and spelling as
/// written. The walk ends at the first [`Stop`].
///
/// ```
/// use kifu::family::chess::rules::Replay;
/// # use kifu::format::ReadOptions;
/// let game = kifu::family::chess::pgn::read("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *", &ReadOptions::default())
///     .unwrap()
///     .game;
/// let last = Replay::new(&game).unwrap().last().unwrap().unwrap();
/// assert_eq!(last.spelling.check, kifu::family::chess::Check::Mate);
/// ```
pub struct Replay<'g> {
    chess960: bool,
    /// Derive spellings (writers); readers and the JSON check need only
    /// the moves.
    spell: bool,
    /// Walk variations too.
    variations: bool,
    /// The lines being walked, the innermost last.
    stack: Vec<Frame<'g>>,
}

/// A line being walked: the plies still to walk, and the position before
/// the next of them (none in a game not replayed).
struct Frame<'g> {
    plies: std::slice::Iter<'g, IrPly>,
    board: Option<cz::Board>,
}

/// One ply as a [`Replay`] walks it.
#[derive(Debug, Clone, Copy)]
pub struct Step<'g> {
    /// The ply.
    pub ply: &'g IrPly,
    /// Its move: the written one resolved, or the ply's own (a [`Claim`] as
    /// its meaning, in a game not replayed). Never [`Ply::Claimed`].
    pub mv: Ply,
    /// How standard notation spells the move where it stands; the default
    /// (nothing shown) after [`Replay::moves_only`].
    pub spelling: Spelling,
}

/// Why a [`Replay`] stopped at a ply.
#[derive(Debug, Clone)]
pub struct Stop<'g> {
    /// The ply whose move is wrong.
    pub ply: &'g IrPly,
    /// What is wrong with it (`illegal move`, `ambiguous: it can come from
    /// b1 or f3`, `e2e5 is not legal`).
    pub why: String,
    /// The position before it, as a FEN (none in a game not replayed).
    pub position: Option<String>,
}

impl std::fmt::Display for Stop<'_> {
    /// `12... Nf6 is not legal (position: FEN)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.ply.label(), self.why)?;
        if let Some(p) = &self.position {
            write!(f, " (position: {p})")?;
        }
        Ok(())
    }
}

impl<'g> Replay<'g> {
    /// The replay of a chess game's moves from its start position: the
    /// setup's FEN, or the standard start.
    pub fn new(game: &'g Game) -> Result<Replay<'g>, String> {
        let board = board_of(&game.variant)
            .ok_or_else(|| format!("a {} game is not a chess game", game.family().name()))?;
        let start = match (board.validated, fen_of(&game.setup)?) {
            (false, _) => None,
            (true, Some(fen)) => Some(parse_fen(fen)?),
            (true, None) => Some(start_position()),
        };
        Ok(Replay::start(&game.moves, start, board.chess960))
    }

    /// The replay of a line from a position; `None` walks a line that is
    /// not replayed.
    pub fn start(line: &'g Line, position: Option<cz::Board>, chess960: bool) -> Replay<'g> {
        let mut stack = Vec::with_capacity(4);
        stack.push(Frame {
            plies: line.plies.iter(),
            board: position,
        });
        Replay {
            chess960,
            spell: true,
            variations: true,
            stack,
        }
    }

    /// Derives no spelling (readers and checks need only the moves), which
    /// saves the work of a check mark and a disambiguation.
    pub fn moves_only(mut self) -> Replay<'g> {
        self.spell = false;
        self
    }

    /// Walks the main line alone, past the variations.
    pub fn main_line(mut self) -> Replay<'g> {
        self.variations = false;
        self
    }

    /// Resolves a written move as the next ply's move, and plays it; `None`
    /// when the walk is over.
    pub fn next_written(&mut self, w: &Written) -> Option<Result<Step<'g>, Stop<'g>>> {
        self.step(Some(w))
    }

    /// The next step of a walker that walks the game along with the
    /// replay (a writer): it must be that of the ply holding `mv`.
    pub fn next_of(&mut self, mv: &IrMove) -> Result<Step<'g>, String> {
        match self.step(None) {
            Some(Ok(step)) if std::ptr::eq(&step.ply.mv, mv) => Ok(step),
            Some(Err(stop)) => Err(stop.to_string()),
            _ => Err("the replay lost its place in the game".to_string()),
        }
    }

    fn step(&mut self, written: Option<&Written>) -> Option<Result<Step<'g>, Stop<'g>>> {
        let ply = loop {
            let frame = self.stack.last_mut()?;
            match frame.plies.next() {
                Some(ply) => break ply,
                None => {
                    self.stack.pop();
                }
            }
        };
        let branches = self.variations && !ply.variations.is_empty();
        let frame = self.stack.last_mut()?;
        let mut before = if branches { frame.board.clone() } else { None };
        let played = match (&mut frame.board, written) {
            (None, None) => as_claimed(&ply.mv),
            (None, Some(w)) => as_written(w, Check::None, ply.side).map(|p| match p {
                Ply::Claimed(c) => (Ply::Move(c.meaning()), c.spelling()),
                other => (other, Spelling::default()),
            }),
            (Some(board), Some(w)) => play_written(board, self.chess960, w, self.spell),
            (Some(board), None) => play_given(board, &ply.mv, self.spell),
        };
        match played {
            Ok((mv, spelling)) => {
                if branches {
                    // The first variation is walked first: pushed last,
                    // with the position itself rather than a copy.
                    for (i, v) in ply.variations.iter().enumerate().rev() {
                        let board = if i == 0 {
                            before.take()
                        } else {
                            before.clone()
                        };
                        self.stack.push(Frame {
                            plies: v.plies.iter(),
                            board,
                        });
                    }
                }
                Some(Ok(Step { ply, mv, spelling }))
            }
            Err(why) => {
                // A move that fails leaves the position as it was.
                let position = frame.board.as_ref().map(|b| fen(b, self.chess960));
                self.stack.clear();
                Some(Err(Stop { ply, why, position }))
            }
        }
    }
}

impl<'g> Iterator for Replay<'g> {
    type Item = Result<Step<'g>, Stop<'g>>;

    /// Checks and plays the next ply's own move.
    fn next(&mut self) -> Option<Self::Item> {
        self.step(None)
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
    for step in Replay::new(game)?.moves_only() {
        step.map_err(|stop| stop.to_string())?;
    }
    Ok(())
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
        let (_, sp) = play(&mut b.clone(), mv);
        assert_eq!((sp.file, sp.rank), (Some(1), None));
    }

    #[test]
    fn x_fen_castling_becomes_shredder() {
        let b = parse_fen("1k6/8/8/8/8/8/8/RK4R1 w KQ - 0 1").unwrap();
        assert_eq!(fen(&b, true), "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1");
        let mv = resolve(&b, true, &Written::Castle(Wing::King)).unwrap();
        let (m, _) = play(&mut b.clone(), mv);
        assert_eq!(m.castle, Some(Wing::King));
    }

    #[test]
    fn double_check_and_mate() {
        // Fool's mate.
        let mut b = cz::Board::default();
        for uci in ["f2f3", "e7e5", "g2g4"] {
            b.play(uci.parse().unwrap());
        }
        let (_, sp) = play(&mut b.clone(), "d8h4".parse().unwrap());
        assert_eq!(sp.check, Check::Mate);
        // Discovered double check: the knight moves off the e-file.
        let b = parse_fen("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1").unwrap();
        let (_, sp) = play(&mut b.clone(), "e4d6".parse().unwrap());
        assert_eq!(sp.check, Check::Double);
    }
}
