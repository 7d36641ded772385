//! The one board of the chess rules ([`Position`]): where the pieces stand,
//! the moves legal on it, and how a move is played and spelled there.

use cozy_chess as cz;

use crate::family::chess::{Check, Move, Role, Wing};
use crate::ir::Side;

use super::*;

impl Position {
    /// The position of a board read from a FEN.
    pub fn of(board: &cz::Board) -> Position {
        let us = board.side_to_move();
        let rights = |c: cz::Color| {
            let r = board.castle_rights(c);
            [r.short, r.long]
        };
        Position {
            pieces: cz::Piece::ALL.map(|p| board.pieces(p)),
            colors: [
                board.colors(cz::Color::White),
                board.colors(cz::Color::Black),
            ],
            us,
            en_passant: board
                .en_passant()
                .map(|f| cz::Square::new(f, cz::Rank::Sixth.relative_to(us))),
            castling: [rights(cz::Color::White), rights(cz::Color::Black)],
            halfmove: board.halfmove_clock(),
            fullmove: u32::from(board.fullmove_number()),
        }
    }

    /// The standard start position.
    pub fn start() -> Position {
        static START: std::sync::LazyLock<Position> =
            std::sync::LazyLock::new(|| Position::of(&cz::Board::default()));
        *START
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        match self.us {
            cz::Color::White => Side::White,
            cz::Color::Black => Side::Black,
        }
    }

    /// The number of the move being played (FEN's sixth field).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The position with the move number of `fen`, its text, where that is
    /// past what the board read from it holds (65,535).
    pub fn numbered(mut self, fen: &str) -> Position {
        if let Some(n) = fullmove_of(fen).filter(|&n| n > u32::from(u16::MAX)) {
            self.fullmove = n;
        }
        self
    }

    /// The position as a FEN (Shredder castling letters in Chess960).
    pub fn fen(&self, chess960: bool) -> String {
        let mut b = cz::BoardBuilder::empty();
        for (i, &bb) in self.pieces.iter().enumerate() {
            for sq in bb {
                let color = if self.colors[0].has(sq) {
                    cz::Color::White
                } else {
                    cz::Color::Black
                };
                b.board[sq as usize] = Some((cz::Piece::index(i), color));
            }
        }
        b.side_to_move = self.us;
        for (c, rights) in self.castling.iter().enumerate() {
            b.castle_rights[c] = cz::CastleRights {
                short: rights[0],
                long: rights[1],
            };
        }
        b.en_passant = self.en_passant;
        b.halfmove_clock = self.halfmove;
        // The board holds a move number up to 65,535: the FEN's last field
        // is written from this position's own.
        b.fullmove_number = u16::try_from(self.fullmove).unwrap_or(u16::MAX);
        match b.build() {
            Ok(board) => renumbered(fen(&board, chess960), self.fullmove),
            Err(e) => format!("(a position FEN cannot hold: {e:?})"),
        }
    }

    pub(super) fn piece(&self, p: cz::Piece) -> cz::BitBoard {
        self.pieces[p as usize]
    }

    pub(super) fn side(&self, c: cz::Color) -> cz::BitBoard {
        self.colors[c as usize]
    }

    pub(super) fn occupied(&self) -> cz::BitBoard {
        self.colors[0] | self.colors[1]
    }

    pub(super) fn king(&self, c: cz::Color) -> Option<cz::Square> {
        (self.piece(cz::Piece::King) & self.side(c)).next_square()
    }

    /// The kind of the piece of side `c` on `sq`, if one stands there.
    pub(super) fn piece_of(&self, c: cz::Color, sq: cz::Square) -> Option<cz::Piece> {
        if !self.side(c).has(sq) {
            return None;
        }
        cz::Piece::ALL.into_iter().find(|&p| self.piece(p).has(sq))
    }

    /// The file of the rook side `c` castles with on `wing`, if it may.
    pub(super) fn castling_rook(&self, c: cz::Color, wing: Wing) -> Option<cz::File> {
        self.castling[c as usize][wing as usize]
    }

    /// The pieces of side `by` among `of` that attack `sq` when `occupied`
    /// stands.
    #[inline]
    pub(super) fn attackers(
        &self,
        sq: cz::Square,
        by: cz::Color,
        of: cz::BitBoard,
        occupied: cz::BitBoard,
    ) -> cz::BitBoard {
        use cz::Piece::*;
        let (q, r, b) = (self.piece(Queen), self.piece(Rook), self.piece(Bishop));
        let attackers = (cz::get_knight_moves(sq) & self.piece(Knight))
            | (cz::get_king_moves(sq) & self.piece(King))
            | (cz::get_pawn_attacks(sq, !by) & self.piece(Pawn))
            | (cz::get_bishop_moves(sq, occupied) & (b | q))
            | (cz::get_rook_moves(sq, occupied) & (r | q));
        attackers & of & self.side(by)
    }

    /// Whether the side to move stands in check.
    pub(super) fn in_check(&self) -> bool {
        self.king(self.us).is_some_and(|king| {
            !self
                .attackers(king, !self.us, cz::BitBoard::FULL, self.occupied())
                .is_empty()
        })
    }

    /// Whether the side to move's king is safe after its piece (not the
    /// king) on `from` goes to `to`, taking what stands on `taken`.
    #[inline]
    pub(super) fn safe_after(&self, from: cz::Square, to: cz::Square, taken: cz::Square) -> bool {
        let Some(king) = self.king(self.us) else {
            return true;
        };
        let occupied = (self.occupied() & !from.bitboard() & !taken.bitboard()) | to.bitboard();
        let them = !taken.bitboard();
        self.attackers(king, !self.us, them, occupied).is_empty()
    }

    /// Whether the side to move's king, moved from `king` to `to` (taking
    /// what stands there), is safe there.
    pub(super) fn king_safe_on(&self, king: cz::Square, to: cz::Square) -> bool {
        let occupied = (self.occupied() & !king.bitboard()) | to.bitboard();
        self.attackers(to, !self.us, !to.bitboard(), occupied)
            .is_empty()
    }

    /// Whether a move of the side to move's `piece`, which stands on
    /// `mv.from`, is legal.
    pub(crate) fn legal(&self, mv: cz::Move, piece: cz::Piece) -> bool {
        let us = self.us;
        let (from, to) = (mv.from, mv.to);
        let occupied = self.occupied();
        let plain = mv.promotion.is_none();
        if piece == cz::Piece::King {
            return plain && self.king_legal(from, to);
        }
        if self.side(us).has(to) {
            return false;
        }
        let reaches = match piece {
            cz::Piece::Knight => cz::get_knight_moves(from).has(to),
            cz::Piece::Bishop => cz::get_bishop_moves(from, occupied).has(to),
            cz::Piece::Rook => cz::get_rook_moves(from, occupied).has(to),
            cz::Piece::Queen => {
                (cz::get_bishop_moves(from, occupied) | cz::get_rook_moves(from, occupied)).has(to)
            }
            cz::Piece::Pawn => {
                let last = to.rank() == cz::Rank::Eighth.relative_to(us);
                let promotes = matches!(
                    mv.promotion,
                    Some(
                        cz::Piece::Knight | cz::Piece::Bishop | cz::Piece::Rook | cz::Piece::Queen
                    )
                );
                if last != promotes || (plain == promotes) {
                    return false;
                }
                if cz::get_pawn_attacks(from, us).has(to) {
                    if self.side(!us).has(to) {
                        return self.safe_after(from, to, to);
                    }
                    // Onto the square a pawn passed over: en passant.
                    let taken = cz::Square::new(to.file(), from.rank());
                    return self.en_passant == Some(to) && self.safe_after(from, to, taken);
                }
                if from.file() != to.file() || occupied.has(to) {
                    return false;
                }
                let (rank, target) = (
                    from.rank().relative_to(us) as u8,
                    to.rank().relative_to(us) as u8,
                );
                target == rank + 1
                    || (rank == 1
                        && target == 3
                        && !occupied.has(cz::Square::new(
                            from.file(),
                            cz::Rank::Third.relative_to(us),
                        )))
            }
            cz::Piece::King => false,
        };
        // Promotion is for pawns alone.
        reaches && (plain || piece == cz::Piece::Pawn) && self.safe_after(from, to, to)
    }

    /// Whether the side to move's king may go from `from` to `to`: a step
    /// to a square not attacked, or castling (the king takes its own rook).
    pub(super) fn king_legal(&self, from: cz::Square, to: cz::Square) -> bool {
        let us = self.us;
        if self.side(us).has(to) {
            let rank = cz::Rank::First.relative_to(us);
            let wing = match self.castling[us as usize] {
                [Some(f), _] if to == cz::Square::new(f, rank) => Wing::King,
                [_, Some(f)] if to == cz::Square::new(f, rank) => Wing::Queen,
                _ => return false,
            };
            return from.rank() == rank && self.can_castle(from, to, wing);
        }
        cz::get_king_moves(from).has(to) && self.king_safe_on(from, to)
    }

    /// Whether the king on `king` may castle with the rook on `rook`: not
    /// in check, nothing but the two between them and their squares, no
    /// square the king crosses or reaches attacked, the rook not pinned.
    pub(super) fn can_castle(&self, king: cz::Square, rook: cz::Square, wing: Wing) -> bool {
        let us = self.us;
        if !(self.piece(cz::Piece::Rook) & self.side(us)).has(rook) || self.in_check() {
            return false;
        }
        let (king_file, rook_file) = match wing {
            Wing::King => (cz::File::G, cz::File::F),
            Wing::Queen => (cz::File::C, cz::File::D),
        };
        let king_dest = cz::Square::new(king_file, king.rank());
        let rook_dest = cz::Square::new(rook_file, king.rank());
        let blockers = self.occupied() ^ king.bitboard() ^ rook.bitboard();
        let must_be_safe = cz::get_between_rays(king, king_dest) | king_dest.bitboard();
        let must_be_empty = must_be_safe | cz::get_between_rays(king, rook) | rook_dest.bitboard();
        if !(blockers & must_be_empty).is_empty() {
            return false;
        }
        // The rook pinned to the king along the back rank.
        let without_rook = self.occupied() ^ rook.bitboard();
        if !self
            .attackers(king, !us, cz::BitBoard::FULL, without_rook)
            .is_empty()
        {
            return false;
        }
        must_be_safe
            .into_iter()
            .all(|sq| self.king_safe_on(king, sq))
    }

    /// The part of a legal move's square of departure that standard
    /// notation shows: a capturing pawn's file; for a piece that another of
    /// its kind could replace, the file, else the rank, else both.
    #[inline(always)]
    pub(super) fn shown_origin(&self, m: &Move) -> (Option<u8>, Option<u8>) {
        let Some(from) = m.from else {
            return (None, None);
        };
        if m.role == Role::Pawn {
            return (m.capture.then_some(from.file()), None);
        }
        if m.castle.is_some() || m.role == Role::King {
            return (None, None);
        }
        let (from, to) = (cz_square(from), cz_square(m.to));
        let piece = cz_role(m.role);
        let kind = self.piece(piece) & self.side(self.us) & !from.bitboard();
        if kind.is_empty() {
            return (None, None);
        }
        // Other pieces of the same kind that reach the square (usually
        // none), each a rival where it may legally go there.
        let others = kind & reachers(self, piece, to);
        let (mut same_file, mut same_rank, mut rivals) = (false, false, false);
        for sq in others {
            if self.safe_after(sq, to, to) {
                rivals = true;
                same_file |= sq.file() == from.file();
                same_rank |= sq.rank() == from.rank();
            }
        }
        let (file, rank) = (from.file() as u8, from.rank() as u8);
        match (rivals, same_file, same_rank) {
            (false, _, _) => (None, None),
            (true, false, _) => (Some(file), None),
            (true, true, false) => (None, Some(rank)),
            (true, true, true) => (Some(file), Some(rank)),
        }
    }

    /// Passes the move (a null move).
    pub(super) fn pass(&mut self) {
        self.count(false);
        self.en_passant = None;
        self.us = !self.us;
    }

    /// Counts a ply, before the side to move changes: the move number after
    /// Black's, and the plies since a capture or pawn move (`resets`: this
    /// is one), at most 100 as FEN writers keep it.
    #[inline(always)]
    pub(super) fn count(&mut self, resets: bool) {
        if self.us == cz::Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.halfmove = if resets {
            0
        } else {
            (self.halfmove + 1).min(100)
        };
    }

    /// Plays a move known to be legal.
    #[inline(always)]
    pub(super) fn apply_move(&mut self, m: &Move) {
        self.record(m);
        self.place(m);
    }

    /// Keeps the records of a move known to be legal, before it is placed:
    /// the move counters and the castling rights it takes away.
    #[inline(always)]
    pub(super) fn record(&mut self, m: &Move) {
        let us = self.us;
        self.count(m.from.is_some() && (m.role == Role::Pawn || m.capture) && m.castle.is_none());
        let Some(from) = m.from else {
            return;
        };
        if self.castling == [[None, None], [None, None]] {
            return;
        }
        // A king or rook leaving its square, or a rook taken on it.
        let ours = us as usize;
        let back = |c: cz::Color| cz::Rank::First.relative_to(c) as u8;
        if m.role == Role::King {
            self.castling[ours] = [None, None];
        } else if m.role == Role::Rook && from.rank() == back(us) {
            let file = cz::File::index(usize::from(from.file()));
            for r in &mut self.castling[ours] {
                if *r == Some(file) {
                    *r = None;
                }
            }
        }
        if m.capture && m.to.rank() == back(!us) {
            let file = cz::File::index(usize::from(m.to.file()));
            for r in &mut self.castling[1 - ours] {
                if *r == Some(file) {
                    *r = None;
                }
            }
        }
    }

    /// Places a move known to be legal: the pieces, the en passant square,
    /// the side to move. Spelling needs no more; the rules keep the records
    /// too ([`Position::record`]).
    #[inline(always)]
    pub(super) fn place(&mut self, m: &Move) {
        let us = self.us;
        self.en_passant = None;
        self.us = !us;
        let Some(from) = m.from else {
            return;
        };
        let (from, to) = (cz_square(from), cz_square(m.to));
        let ours = us as usize;
        if let Some(wing) = m.castle {
            // The king takes its own rook: both go to their files.
            self.lift(cz::Piece::King, from, ours);
            self.lift(cz::Piece::Rook, to, ours);
            let (king, rook) = match wing {
                Wing::King => (cz::File::G, cz::File::F),
                Wing::Queen => (cz::File::C, cz::File::D),
            };
            let rank = from.rank();
            self.drop(cz::Piece::King, cz::Square::new(king, rank), ours);
            self.drop(cz::Piece::Rook, cz::Square::new(rook, rank), ours);
            return;
        }
        let piece = cz_role(m.role);
        self.lift(piece, from, ours);
        if m.en_passant {
            let taken = cz::Square::new(to.file(), from.rank());
            self.lift(cz::Piece::Pawn, taken, 1 - ours);
        } else if self.colors[1 - ours].has(to) {
            for p in &mut self.pieces {
                *p &= !to.bitboard();
            }
            self.colors[1 - ours] &= !to.bitboard();
        }
        self.drop(m.promotion.map_or(piece, cz_role), to, ours);
        if piece == cz::Piece::Pawn
            && from.rank().relative_to(us) == cz::Rank::Second
            && to.rank().relative_to(us) == cz::Rank::Fourth
        {
            let passed = cz::Square::new(to.file(), cz::Rank::Third.relative_to(us));
            self.en_passant = Some(passed);
        }
    }

    pub(super) fn lift(&mut self, p: cz::Piece, sq: cz::Square, side: usize) {
        self.pieces[p as usize] &= !sq.bitboard();
        self.colors[side] &= !sq.bitboard();
    }

    pub(super) fn drop(&mut self, p: cz::Piece, sq: cz::Square, side: usize) {
        self.pieces[p as usize] |= sq.bitboard();
        self.colors[side] |= sq.bitboard();
    }

    /// The check the side to move stands in.
    #[inline(always)]
    pub(super) fn check(&self) -> Check {
        let Some(king) = self.king(self.us) else {
            return Check::None;
        };
        let checkers = self.attackers(king, !self.us, cz::BitBoard::FULL, self.occupied());
        match checkers.len() {
            0 => Check::None,
            _ if !self.can_move(king, checkers) => Check::Mate,
            1 => Check::Check,
            _ => Check::Double,
        }
    }

    /// Whether the side to move, in check from `checkers`, has a legal
    /// move: the king steps out, or (in single check) a piece takes the
    /// checker or steps between, en passant included.
    #[inline(never)]
    pub(super) fn can_move(&self, king: cz::Square, checkers: cz::BitBoard) -> bool {
        let us = self.us;
        let ours = self.side(us);
        let without_king = self.occupied() & !king.bitboard();
        for to in cz::get_king_moves(king) & !ours {
            if self
                .attackers(to, !us, !to.bitboard(), without_king)
                .is_empty()
            {
                return true;
            }
        }
        let Some(checker) = checkers.next_square().filter(|_| checkers.len() == 1) else {
            return false;
        };
        let occupied = self.occupied();
        let movers = ours & !self.piece(cz::Piece::King);
        let pawns = movers & self.piece(cz::Piece::Pawn);
        let (q, r, b) = (
            self.piece(cz::Piece::Queen),
            self.piece(cz::Piece::Rook),
            self.piece(cz::Piece::Bishop),
        );
        let targets = checker.bitboard() | cz::get_between_rays(king, checker);
        for to in targets {
            let mut from = movers
                & ((cz::get_knight_moves(to) & self.piece(cz::Piece::Knight))
                    | (cz::get_bishop_moves(to, occupied) & (b | q))
                    | (cz::get_rook_moves(to, occupied) & (r | q)));
            if to == checker {
                from |= pawns & cz::get_pawn_attacks(to, !us);
            } else if let Some(back) = to.try_offset(0, if us == cz::Color::White { -1 } else { 1 })
            {
                // Pushes onto an empty square between.
                if pawns.has(back) {
                    from |= back.bitboard();
                } else if !occupied.has(back) && to.rank().relative_to(us) == cz::Rank::Fourth {
                    let start = cz::Square::new(to.file(), cz::Rank::Second.relative_to(us));
                    from |= pawns & start.bitboard();
                }
            }
            if from.into_iter().any(|f| self.safe_after(f, to, to)) {
                return true;
            }
        }
        if let Some(ep) = self.en_passant {
            let taken = cz::Square::new(ep.file(), cz::Rank::Fifth.relative_to(us));
            let from = pawns & cz::get_pawn_attacks(ep, !us);
            if from.into_iter().any(|f| self.safe_after(f, ep, taken)) {
                return true;
            }
        }
        false
    }
}

/// The move number of a FEN's text (its sixth field), if it has one.
pub fn fullmove_of(fen: &str) -> Option<u32> {
    fen.split_whitespace().nth(5)?.parse().ok()
}

/// A FEN written from a board (which holds a move number up to 65,535)
/// with its move number `n`: the same text up to 65,535.
pub fn renumbered(fen: String, n: u32) -> String {
    if n <= u32::from(u16::MAX) {
        return fen;
    }
    match fen.rsplit_once(' ') {
        Some((rest, _)) => format!("{rest} {n}"),
        None => fen,
    }
}
