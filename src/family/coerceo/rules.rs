//! Coerceo's rules: the position, the turns a side may play, what each
//! turn causes, and the replay of a game's moves.
//!
//! The rules are the publisher's (The Coerceo Company); where its text
//! leaves a point open, the two open engines (NPN/coerceo, Blecki/coerceo)
//! were read for how they settle it, and kifu does as both do:
//!
//! - a turn is a step or an exchange. A step moves a piece of the side to
//!   move to an empty field of its own colour that shares a corner with
//!   its field (at most six), on a tile still on the board;
//! - an exchange hands in tiles the side has collected (two, `TT`; one,
//!   `T`, where the game is played so) to take any piece of the opponent;
//! - a piece of the opponent is captured when every field across its
//!   sides that is still on the board holds a piece of the side that
//!   played (two on the edge, three in the middle; none left: captured).
//!   Only the opponent's pieces are captured, only those a turn touches:
//!   the ones beside the field stepped to, and those beside a tile taken
//!   away; a piece that steps into an enclosure is not captured;
//! - a tile is taken off the board when it is empty and the tiles still
//!   around it are at most three, side by side (it can slide away). The
//!   tile a step leaves is tried, then every tile beside one taken off,
//!   and the tile of every captured piece, until nothing changes; the
//!   side that stepped collects the tiles so taken. A tile emptied by an
//!   exchange goes off the board too, collected by no one;
//! - a side whose last piece is captured has lost: no turn follows.
//!
//! A Coerceo record writes a turn's captures (`x14a`) and removals (`T14`)
//! after it. A record that writes any has every turn's checked against
//! the rules; one that writes none gets them computed ([`replay`]). An
//! exchange written after a step (`8f-19b TT x19f`, twice in the seed's
//! game) is the opponent's turn, written in the same ply.

use crate::family::coerceo::board::{geometry, Geometry, FIELDS, TILES};
use crate::family::coerceo::{Action, Exchange, Field, Kind, Move, Step, Tile};
use crate::ir::{Game, Line, Side};

impl Move {
    /// The field the moved piece left.
    pub fn from(&self) -> Option<Field> {
        self.step.map(|s| s.from)
    }

    /// The field the moved piece reached.
    pub fn to(&self) -> Option<Field> {
        self.step.map(|s| s.to)
    }

    /// The fields whose pieces were captured, in order.
    pub fn captures(&self) -> impl Iterator<Item = Field> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Capture(f) => Some(f),
            _ => None,
        })
    }

    /// The tiles removed, in order (a tile the board does not have is left
    /// out: see [`Action::RemoveUnknown`]).
    pub fn removed(&self) -> impl Iterator<Item = Tile> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Remove(t) => Some(t),
            _ => None,
        })
    }

    /// The exchanges of tiles for pieces, in order.
    pub fn exchanges(&self) -> impl Iterator<Item = Exchange> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Exchange(e) => Some(e),
            _ => None,
        })
    }

    /// Checks what the notation's grammar holds: a ply moves a piece or
    /// starts with an exchange, and a removal of a tile the board does not
    /// have names a number outside 1 to 19 (one spelling for each thing).
    pub fn check(&self) -> Result<(), String> {
        if self.step.is_none() && !matches!(self.actions.first(), Some(Action::Exchange(_))) {
            return Err(
                "a Coerceo ply moves a piece (`14d-14f`) or starts with an exchange (`TT`, `T`)"
                    .to_string(),
            );
        }
        for a in &self.actions {
            if let Action::RemoveUnknown(n) = *a {
                if let Some(t) = Tile::new(n) {
                    return Err(format!(
                        "`remove_unknown` {n} is tile {}: write it as `remove`",
                        t.number()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Checks a Coerceo game that did not come through the grammar (JSON):
/// every move's shape ([`Move::check`]), naming the ply; and, when the game
/// was replayed, its moves replayed again, with what they caused as
/// written (a removal written with a number the rules do not take off is
/// an error here).
pub fn check_game(game: &Game, board: &super::Board) -> Result<(), String> {
    fn line(l: &Line) -> Result<(), String> {
        for ply in &l.plies {
            ply.mv
                .of(
                    crate::family::any::Family::Coerceo,
                    crate::family::any::Move::as_coerceo,
                )
                .and_then(|m| m.check())
                .map_err(|e| format!("{} {e}", ply.label(crate::ir::Side::White)))?;
            for v in &ply.variations {
                line(v)?;
            }
        }
        Ok(())
    }
    line(&game.moves)?;
    if board.validated {
        let mut pos = start_of(game, board.game)?;
        let mut moves = game.moves.clone();
        let mut notes = Vec::new();
        replay(&mut moves, &mut pos, Listing::of(&game.moves), &mut notes).map_err(|(_, e)| e)?;
        if let Some(n) = notes
            .iter()
            .find(|n| n.kind != crate::error::Kind::TurnOrder)
        {
            return Err(n.message.clone());
        }
    }
    Ok(())
}

/// The warning of a game read with `--no-validate`.
pub const UNREPLAYED: &str = "moves not replayed (--no-validate): captures and tile removals \
                              are as written, unchecked";

/// The start of Laurentius (19 tiles), White's pieces then Black's: two
/// pieces on each tile but the centre.
const LAURENTIUS: [&str; 2] = [
    "3a 3c 5c 5e 7a 7e 9c 10a 10c 11a 13e 14c 14e 15c 17a 18a 18e 19e",
    "2b 2f 4b 4d 6d 6f 8b 8f 9f 11d 12b 12d 13b 15f 16d 16f 17d 19b",
];

/// The start of Laurentius as its position text writes it.
pub const START_TEXT: &str = "6/1b3b/w1w3/1b1b2/2w1w1/3b1b/w3w1/1b3b/2w2b/w1w3/w2b2/1b1b2/1b2w1/\
                              2w1w1/2w2b/3b1b/w2b2/w3w1/1b2w1 w 0:0";

/// The start of Ocius (the short game: tiles 1 to 7), White's then
/// Black's.
const OCIUS: [&str; 2] = ["1e 2c 2e 4a 4e 6a 6c", "1b 3d 3f 5b 5f 7b 7d"];

/// The index of a side in the position's pairs.
fn at(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

/// A side's name in messages.
pub fn name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// One turn: a step, or tiles exchanged for the opponent's piece on a
/// field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A piece moved.
    Step(Step),
    /// Tiles handed in for the piece on the field.
    Exchange(Exchange, Field),
}

impl Turn {
    /// The turn as the notation writes it, without what it caused.
    pub fn spelled(self) -> String {
        let m = match self {
            Turn::Step(s) => Move {
                step: Some(s),
                actions: Vec::new(),
            },
            Turn::Exchange(e, f) => Move {
                step: None,
                actions: vec![Action::Exchange(e), Action::Capture(f)],
            },
        };
        let mut out = String::new();
        let _ = super::spell(&m, &mut out);
        out
    }
}

/// What a turn caused: the pieces captured and the tiles taken off the
/// board, each in board order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Played {
    /// The opponent's pieces captured (an exchange's own piece not
    /// included).
    pub captures: Vec<Field>,
    /// The tiles taken off the board.
    pub removed: Vec<Tile>,
}

/// A Coerceo position: the tiles on the board, the pieces on them, the
/// tiles each side holds, the side to move, and how many tiles an
/// exchange takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position<'g> {
    geo: &'g Geometry,
    /// Each side's pieces, a bit per field ([`Field::index`]).
    pieces: [u128; 2],
    /// The tiles on the board, a bit per tile.
    tiles: u32,
    /// The tiles each side has collected and not exchanged.
    held: [u8; 2],
    /// The side to move.
    pub to_move: Side,
    /// How many tiles an exchange takes: 2 (`TT`), or 1 (`T`) where the
    /// game is played so.
    pub cost: u8,
}

impl Position<'static> {
    /// The start of a game, White to move.
    pub fn start(kind: Kind) -> Position<'static> {
        Position::start_on(geometry(), kind)
    }

    /// Reads a position text ([`Position::text`]): the error says what is
    /// wrong.
    pub fn parse(text: &str) -> Result<Position<'static>, String> {
        Position::parse_on(geometry(), text)
    }
}

impl<'g> Position<'g> {
    /// The start of a game on a board numbered as `geo` is, from the
    /// pieces of `kind` as the notation's numbering ([`geometry`]) places
    /// them.
    pub fn start_on(geo: &'g Geometry, kind: Kind) -> Position<'g> {
        let (lists, tiles) = match kind {
            Kind::Laurentius => (LAURENTIUS, TILES),
            Kind::Ocius => (OCIUS, 7),
        };
        let mut pieces = [0u128; 2];
        for (side, list) in lists.iter().enumerate() {
            for f in list.split(' ') {
                let f = Field::parse(f).map(Field::index).unwrap_or(0);
                pieces[side] |= 1 << super::board::translate(geometry(), geo, f);
            }
        }
        let mut bits = 0u32;
        for t in 0..tiles {
            bits |= 1 << super::board::translate_tile(geometry(), geo, t);
        }
        Position {
            geo,
            pieces,
            tiles: bits,
            held: [0, 0],
            to_move: Side::White,
            cost: 2,
        }
    }

    /// The piece on a field, if one is.
    pub fn piece(&self, field: usize) -> Option<Side> {
        if self.pieces[0] >> field & 1 == 1 {
            Some(Side::White)
        } else if self.pieces[1] >> field & 1 == 1 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Whether a tile (an index, 0 to 18) is on the board.
    pub fn has_tile(&self, tile: usize) -> bool {
        self.tiles >> tile & 1 == 1
    }

    /// The tiles on the board.
    pub fn tile_count(&self) -> u32 {
        self.tiles.count_ones()
    }

    /// How many pieces a side has.
    pub fn pieces_of(&self, side: Side) -> u32 {
        self.pieces[at(side)].count_ones()
    }

    /// How many tiles a side holds.
    pub fn held(&self, side: Side) -> u8 {
        self.held[at(side)]
    }

    /// Whether a tile's fields are all empty.
    fn empty_tile(&self, tile: usize) -> bool {
        let mask = 0b11_1111u128 << (6 * tile);
        (self.pieces[0] | self.pieces[1]) & mask == 0
    }

    /// Whether a tile on the board may be taken off it, were it empty: the
    /// tiles around it are at most three, side by side.
    fn slides_away(&self, tile: usize) -> bool {
        let around =
            self.geo.tiles[tile].map(|t| t != super::board::NONE && self.has_tile(usize::from(t)));
        let n = around.iter().filter(|&&b| b).count();
        n == 0 || (n <= 3 && (0..6).any(|s| (0..n).all(|i| around[(s + i) % 6])))
    }

    /// Whether the piece on `field` is enclosed by pieces of `by`: every
    /// field across its sides still on the board holds one.
    fn enclosed(&self, field: usize, by: Side) -> bool {
        self.geo
            .sides_of(field)
            .filter(|&n| self.has_tile(n / 6))
            .all(|n| self.piece(n) == Some(by))
    }

    /// Why a tile is not taken off the board now (for messages).
    fn why_kept(&self, tile: usize) -> String {
        if !self.has_tile(tile) {
            return "it is off the board already".to_string();
        }
        let held: Vec<String> = (6 * tile..6 * tile + 6)
            .filter(|&f| self.piece(f).is_some())
            .map(|f| Field::from_index(f).to_string())
            .collect();
        if held.is_empty() {
            "it is held to the board by more than three tiles, or by tiles not side by side"
                .to_string()
        } else {
            format!("pieces stand on it: {}", held.join(", "))
        }
    }

    /// Takes off what a turn of `mover` caused, from the tiles and fields
    /// it touched, until nothing changes; the tiles taken are collected by
    /// the mover when `collect`.
    fn settle(
        &mut self,
        mover: Side,
        mut tiles: Vec<usize>,
        mut fields: Vec<usize>,
        collect: bool,
    ) -> Played {
        let them = mover.other();
        let mut out = Played::default();
        loop {
            if let Some(t) = tiles.pop() {
                if !self.has_tile(t) || !self.empty_tile(t) || !self.slides_away(t) {
                    continue;
                }
                self.tiles &= !(1 << t);
                out.removed.push(Tile((t + 1) as u8));
                if collect {
                    self.held[at(mover)] += 1;
                }
                for &n in &self.geo.tiles[t] {
                    if n != super::board::NONE && self.has_tile(usize::from(n)) {
                        tiles.push(usize::from(n));
                    }
                }
                for f in 6 * t..6 * t + 6 {
                    fields.extend(self.geo.sides_of(f).filter(|&n| n / 6 != t));
                }
                continue;
            }
            let Some(f) = fields.pop() else {
                break;
            };
            if self.has_tile(f / 6) && self.piece(f) == Some(them) && self.enclosed(f, mover) {
                self.pieces[at(them)] &= !(1 << f);
                out.captures.push(Field::from_index(f));
                tiles.push(f / 6);
            }
        }
        out.captures.sort();
        out.removed.sort();
        out
    }

    /// Plays a turn of the side to move: checked (the error says why it is
    /// not a turn), then what it causes taken off the board.
    pub fn play(&mut self, turn: Turn) -> Result<Played, String> {
        let me = self.to_move;
        if self.pieces_of(me) == 0 {
            return Err(format!("the game is over: {} has no pieces left", name(me)));
        }
        let played = match turn {
            Turn::Step(Step { from, to }) => {
                let (f, t) = (from.index(), to.index());
                for (field, i) in [(from, f), (to, t)] {
                    if !self.has_tile(i / 6) {
                        return Err(format!(
                            "{field} is on tile {}, which is off the board",
                            field.tile().number()
                        ));
                    }
                }
                match self.piece(f) {
                    Some(s) if s == me => {}
                    _ => return Err(format!("no {} piece on {from}", name(me))),
                }
                if !self.geo.steps_of(f).any(|n| n == t) {
                    return Err(format!(
                        "{to} is not a step from {from} (a piece steps to a field of its colour \
                         that shares a corner with its own)"
                    ));
                }
                if self.piece(t).is_some() {
                    return Err(format!("{to} is taken"));
                }
                self.pieces[at(me)] ^= 1 << f | 1 << t;
                let fields = self.geo.sides_of(t).collect();
                self.settle(me, vec![f / 6], fields, true)
            }
            Turn::Exchange(e, target) => {
                let cost = u8::from(e);
                if cost != self.cost {
                    return Err(format!(
                        "an exchange in this game takes {} tile{} (`{}`), as its first one did",
                        self.cost,
                        if self.cost == 1 { "" } else { "s" },
                        if self.cost == 1 { "T" } else { "TT" }
                    ));
                }
                if self.held(me) < cost {
                    return Err(format!(
                        "{} holds {} tile{}, and an exchange takes {cost}",
                        name(me),
                        self.held(me),
                        if self.held(me) == 1 { "" } else { "s" }
                    ));
                }
                let i = target.index();
                if !self.has_tile(i / 6) || self.piece(i) != Some(me.other()) {
                    return Err(format!("no {} piece on {target}", name(me.other())));
                }
                self.held[at(me)] -= cost;
                self.pieces[at(me.other())] &= !(1 << i);
                self.settle(me, vec![i / 6], Vec::new(), false)
            }
        };
        self.to_move = me.other();
        Ok(played)
    }

    /// Every turn the side to move may play, steps first (none when the
    /// game is over).
    pub fn turns(&self) -> Vec<Turn> {
        let me = self.to_move;
        let mut out = Vec::new();
        if self.pieces_of(me) == 0 {
            return out;
        }
        let occupied = self.pieces[0] | self.pieces[1];
        for f in 0..FIELDS {
            if self.piece(f) != Some(me) {
                continue;
            }
            for t in self.geo.steps_of(f) {
                if self.has_tile(t / 6) && occupied >> t & 1 == 0 {
                    out.push(Turn::Step(Step {
                        from: Field::from_index(f),
                        to: Field::from_index(t),
                    }));
                }
            }
        }
        if self.held(me) >= self.cost {
            let e = if self.cost == 1 {
                Exchange::One
            } else {
                Exchange::Two
            };
            for f in 0..FIELDS {
                if self.piece(f) == Some(me.other()) {
                    out.push(Turn::Exchange(e, Field::from_index(f)));
                }
            }
        }
        out
    }

    /// The position as its text writes it: each tile 1 to 19 in turn,
    /// separated by `/`, a tile off the board `-`, a tile on it its fields
    /// `a` to `f`, `w` a white piece, `b` a black one, a digit a run of
    /// empty fields (`6` an empty tile); then the side to move, `w` or `b`;
    /// then the tiles White and Black hold, `0:0`. The start of
    /// Laurentius is
    /// `6/1b3b/w1w3/1b1b2/2w1w1/3b1b/w3w1/1b3b/2w2b/w1w3/w2b2/1b1b2/1b2w1/2w1w1/2w2b/3b1b/w2b2/w3w1/1b2w1 w 0:0`
    /// ([`START_TEXT`]).
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(96);
        for t in 0..TILES {
            if t > 0 {
                out.push('/');
            }
            if !self.has_tile(t) {
                out.push('-');
                continue;
            }
            let mut run = 0u8;
            for f in 6 * t..6 * t + 6 {
                match self.piece(f) {
                    None => run += 1,
                    Some(s) => {
                        if run > 0 {
                            out.push(char::from(b'0' + run));
                            run = 0;
                        }
                        out.push(if s == Side::White { 'w' } else { 'b' });
                    }
                }
            }
            if run > 0 {
                out.push(char::from(b'0' + run));
            }
        }
        out.push_str(if self.to_move == Side::White {
            " w "
        } else {
            " b "
        });
        out.push_str(&format!("{}:{}", self.held[0], self.held[1]));
        out
    }

    /// The board a position lies on, as it is drawn: the whole one
    /// (Laurentius's) while a tile of the second ring is on it, else the
    /// centre and the first ring (Ocius's).
    pub fn board(&self) -> Kind {
        if (7..TILES).any(|t| self.has_tile(t)) {
            Kind::Laurentius
        } else {
            Kind::Ocius
        }
    }

    /// The position and the side to move, as replay errors end.
    pub fn described(&self) -> String {
        format!("position: {}, {} to move", self.text(), name(self.to_move))
    }

    /// Reads a position text ([`Position::text`]) on a board numbered as
    /// `geo` is.
    pub fn parse_on(geo: &'g Geometry, text: &str) -> Result<Position<'g>, String> {
        let bad = |why: String| format!("position {text}: {why}", text = crate::error::quote(text));
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [board, side, held] = parts[..] else {
            return Err(bad(
                "a Coerceo position is its tiles, the side to move and the tiles held \
                 (`6/1b3b/.../1b2w1 w 0:0`)"
                    .to_string(),
            ));
        };
        let tiles: Vec<&str> = board.split('/').collect();
        if tiles.len() != TILES {
            return Err(bad(format!(
                "{} tiles written, where the board has 19 (`-` for one off the board)",
                tiles.len()
            )));
        }
        let mut pos = Position {
            geo,
            pieces: [0, 0],
            tiles: 0,
            held: [0, 0],
            to_move: Side::White,
            cost: 2,
        };
        for (t, spec) in tiles.iter().enumerate() {
            if *spec == "-" {
                continue;
            }
            pos.tiles |= 1 << t;
            let mut f = 0usize;
            for c in spec.chars() {
                let side = match c {
                    '1'..='6' => {
                        f += c as usize - '0' as usize;
                        continue;
                    }
                    'w' => Side::White,
                    'b' => Side::Black,
                    _ => {
                        return Err(bad(format!(
                            "tile {}: {} is not w, b or 1 to 6",
                            t + 1,
                            crate::error::quote(&c.to_string())
                        )))
                    }
                };
                if f >= 6 {
                    return Err(bad(format!(
                        "tile {} has more than 6 fields written",
                        t + 1
                    )));
                }
                let field = 6 * t + f;
                if geo.white[field] != (side == Side::White) {
                    return Err(bad(format!(
                        "a {} piece on {}, a field of the other colour",
                        name(side).to_lowercase(),
                        Field::from_index(field)
                    )));
                }
                pos.pieces[at(side)] |= 1 << field;
                f += 1;
            }
            if f != 6 {
                return Err(bad(format!(
                    "tile {} has {f} fields written, where a tile has 6",
                    t + 1
                )));
            }
        }
        pos.to_move = match side {
            "w" | "W" => Side::White,
            "b" | "B" => Side::Black,
            _ => {
                return Err(bad(format!(
                    "{side} is not the side to move (w or b)",
                    side = crate::error::quote(side)
                )))
            }
        };
        let held: Vec<Option<u8>> = held.split(':').map(|n| n.parse().ok()).collect();
        let [Some(w), Some(b)] = held[..] else {
            return Err(bad(
                "the tiles each side holds are written White's, then Black's: `0:0`".to_string(),
            ));
        };
        if usize::from(w) + usize::from(b) + pos.tiles.count_ones() as usize > TILES {
            return Err(bad(
                "the tiles held and the tiles on the board are more than 19".to_string(),
            ));
        }
        pos.held = [w, b];
        Ok(pos)
    }
}

/// The number of turn sequences of `depth` turns from a position (a
/// finished game has none past it).
pub fn perft(pos: &Position<'_>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let turns = pos.turns();
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .into_iter()
        .map(|t| {
            let mut next = pos.clone();
            let _ = next.play(t);
            perft(&next, depth - 1)
        })
        .sum()
}

/// The turns a ply writes, each with what the record says it caused (the
/// index of each action in the ply's actions, and what it says).
#[derive(Debug, Clone)]
pub struct Written {
    /// The turn.
    pub turn: Turn,
    /// The captures written after it, with their action's index.
    pub captures: Vec<(usize, Field)>,
    /// The removals written after it, with their action's index and the
    /// number written (a tile's, or one the board does not have).
    pub removals: Vec<(usize, u32)>,
}

impl Move {
    /// The turns this ply writes: its step or first exchange, and each
    /// exchange after it (the next side's turn); the error says why the
    /// ply is not turns (an exchange that names no piece).
    pub fn turns(&self) -> Result<Vec<Written>, String> {
        let mut out: Vec<Written> = Vec::new();
        if let Some(step) = self.step {
            out.push(Written {
                turn: Turn::Step(step),
                captures: Vec::new(),
                removals: Vec::new(),
            });
        }
        let mut actions = self.actions.iter().enumerate().peekable();
        while let Some((i, a)) = actions.next() {
            match *a {
                Action::Exchange(e) => {
                    let Some((_, &Action::Capture(target))) = actions.next() else {
                        return Err(format!(
                            "the exchange `{}` names no piece: it is written with the piece it \
                             takes (`{} x15c`)",
                            e.token(),
                            e.token()
                        ));
                    };
                    out.push(Written {
                        turn: Turn::Exchange(e, target),
                        captures: Vec::new(),
                        removals: Vec::new(),
                    });
                }
                _ if out.is_empty() => {
                    return Err(
                        "a Coerceo ply moves a piece (`14d-14f`) or starts with an exchange \
                         (`TT x15c`)"
                            .to_string(),
                    )
                }
                Action::Capture(f) => {
                    if let Some(w) = out.last_mut() {
                        w.captures.push((i, f));
                    }
                }
                Action::Remove(t) => {
                    if let Some(w) = out.last_mut() {
                        w.removals.push((i, u32::from(t.number())));
                    }
                }
                Action::RemoveUnknown(n) => {
                    if let Some(w) = out.last_mut() {
                        w.removals.push((i, n));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether the ply writes anything a turn caused: a capture that is
    /// not an exchange's piece, or a removal.
    pub fn lists_consequences(&self) -> bool {
        let mut after_exchange = false;
        self.actions.iter().any(|a| {
            let listed = match a {
                Action::Capture(_) => !after_exchange,
                Action::Remove(_) | Action::RemoveUnknown(_) => true,
                Action::Exchange(_) => false,
            };
            after_exchange = matches!(a, Action::Exchange(_));
            listed
        })
    }

    /// The ply with only what its player chose: the step and the
    /// exchanges with their pieces (what a record that lists no
    /// consequences writes).
    pub fn bare(&self) -> Move {
        let mut actions = Vec::new();
        let mut after_exchange = false;
        for a in &self.actions {
            match a {
                Action::Exchange(_) => actions.push(*a),
                Action::Capture(_) if after_exchange => actions.push(*a),
                _ => {}
            }
            after_exchange = matches!(a, Action::Exchange(_));
        }
        Move {
            step: self.step,
            actions,
        }
    }
}

/// How a record lists what its turns caused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// It lists nothing: the rules' captures and removals are filled in.
    None,
    /// It lists some: every turn's are checked.
    All,
}

impl Listing {
    /// How a line (and its variations) lists them.
    pub fn of(line: &Line) -> Listing {
        fn any(line: &Line) -> bool {
            line.plies.iter().any(|p| {
                p.mv.as_coerceo().is_some_and(Move::lists_consequences)
                    || p.variations.iter().any(any)
            })
        }
        if any(line) {
            Listing::All
        } else {
            Listing::None
        }
    }
}

/// The tiles an exchange of a line takes: its first exchange's (2 when it
/// has none).
pub fn exchange_cost(line: &Line) -> u8 {
    fn first(line: &Line) -> Option<u8> {
        line.plies.iter().find_map(|p| {
            p.mv.as_coerceo()
                .and_then(|m| m.exchanges().next())
                .map(u8::from)
                .or_else(|| p.variations.iter().find_map(first))
        })
    }
    first(line).unwrap_or(2)
}

/// Something the replay says of a ply that does not stop it: the ply's
/// index (in the order written, each ply before its variations), the
/// action it is about (an index in the ply's actions as read), its kind
/// and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The ply's index in the order written.
    pub index: usize,
    /// The action the note is about, if one.
    pub action: Option<usize>,
    /// The warning's kind.
    pub kind: crate::error::Kind,
    /// What it says.
    pub message: String,
}

/// Replays a line from a position: each turn checked, its captures and
/// removals compared with those written ([`Listing::All`]) or filled in
/// ([`Listing::None`]). A removal written with a number the rules do not
/// take off at that turn (the seed's `T22`, off the board) where they take
/// off one tile the record does not name is read as that tile, with a
/// note. The error names the ply, why, and the position it was played in,
/// with the ply's index in the order written.
pub fn replay(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    notes: &mut Vec<Note>,
) -> Result<(), (usize, String)> {
    replay_from(line, pos, listing, &mut 0, notes)
}

fn replay_from(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    index: &mut usize,
    notes: &mut Vec<Note>,
) -> Result<(), (usize, String)> {
    for ply in &mut line.plies {
        let at = *index;
        *index += 1;
        for var in &mut ply.variations {
            let mut p = pos.clone();
            replay_from(var, &mut p, listing, index, notes)?;
        }
        let label = ply.label(Side::White);
        let side = ply.side;
        let Some(m) = <super::Coerceo as crate::family::any::Member>::of_move_mut(&mut ply.mv)
        else {
            return Err((
                at,
                format!("{label} a move of another family in a Coerceo game"),
            ));
        };
        let mut written = String::new();
        let _ = super::spell(m, &mut written);
        let before = pos.clone();
        let fail = |why: String| {
            (
                at,
                format!("{label} {written}: {why} ({})", before.described()),
            )
        };
        let turns = m.turns().map_err(fail)?;
        let mut filled = Vec::new();
        let mut fixes: Vec<(usize, Tile)> = Vec::new();
        for (k, w) in turns.iter().enumerate() {
            let mover = pos.to_move;
            let played = pos.play(w.turn).map_err(|e| {
                if k == 0 {
                    fail(e)
                } else {
                    fail(format!("{} (the exchange, {}'s turn)", e, name(mover)))
                }
            })?;
            if k == 0 && mover != side {
                notes.push(Note {
                    index: at,
                    action: None,
                    kind: crate::error::Kind::TurnOrder,
                    message: format!(
                        "{label} {written}: numbered as {}'s, but {} is to move (an exchange \
                         written after a step is the other side's turn, and counts no number)",
                        name(side),
                        name(mover)
                    ),
                });
            }
            if let Turn::Exchange(e, target) = w.turn {
                filled.push(Action::Exchange(e));
                filled.push(Action::Capture(target));
            }
            filled.extend(played.captures.iter().map(|&f| Action::Capture(f)));
            filled.extend(played.removed.iter().map(|&t| Action::Remove(t)));
            if listing == Listing::None {
                continue;
            }
            // The captures written, against the rules'.
            let mut caps: Vec<Field> = w.captures.iter().map(|c| c.1).collect();
            caps.sort();
            caps.dedup();
            if caps != played.captures {
                let extra: Vec<String> = caps
                    .iter()
                    .filter(|c| !played.captures.contains(c))
                    .map(Field::to_string)
                    .collect();
                let missing: Vec<String> = played
                    .captures
                    .iter()
                    .filter(|c| !caps.contains(c))
                    .map(Field::to_string)
                    .collect();
                let mut why = Vec::new();
                if !extra.is_empty() {
                    why.push(format!("the rules capture nothing on {}", extra.join(", ")));
                }
                if !missing.is_empty() {
                    why.push(format!("the turn captures {} too", missing.join(", ")));
                }
                return Err(fail(why.join("; ")));
            }
            // The removals written, against the rules'.
            let found: Vec<u32> = played
                .removed
                .iter()
                .map(|t| u32::from(t.number()))
                .collect();
            let extra: Vec<(usize, u32)> = w
                .removals
                .iter()
                .filter(|r| !found.contains(&r.1))
                .copied()
                .collect();
            let missing: Vec<u32> = found
                .iter()
                .filter(|t| !w.removals.iter().any(|r| r.1 == **t))
                .copied()
                .collect();
            match (&extra[..], &missing[..]) {
                ([], []) => {}
                ([(i, n)], [t]) => {
                    let tile = Tile(*t as u8);
                    let (kind, why) = match Tile::new(*n) {
                        None => (crate::error::Kind::UnknownTile, super::not_a_tile(*n)),
                        Some(x) => (
                            crate::error::Kind::WrongTile,
                            format!(
                                "tile {n} is not taken off the board here ({})",
                                pos.why_kept(x.index())
                            ),
                        ),
                    };
                    notes.push(Note {
                        index: at,
                        action: Some(*i),
                        kind,
                        message: format!(
                            "{label} {written}: {why}; the rules take off tile {t} here: \
                             written T{t}"
                        ),
                    });
                    fixes.push((*i, tile));
                }
                _ => {
                    let mut why = Vec::new();
                    for (_, n) in &extra {
                        why.push(match Tile::new(*n) {
                            None => super::not_a_tile(*n),
                            Some(x) => format!(
                                "tile {n} is not taken off the board ({})",
                                pos.why_kept(x.index())
                            ),
                        });
                    }
                    if !missing.is_empty() {
                        let list: Vec<String> = missing.iter().map(u32::to_string).collect();
                        why.push(format!(
                            "the turn takes tile{} {} off the board too",
                            if missing.len() == 1 { "" } else { "s" },
                            list.join(", ")
                        ));
                    }
                    return Err(fail(why.join("; ")));
                }
            }
        }
        match listing {
            Listing::None => m.actions = filled,
            Listing::All => {
                for (i, t) in fixes {
                    m.actions[i] = Action::Remove(t);
                }
            }
        }
    }
    Ok(())
}

/// The position a game starts from: its `Position` tag's, or the start
/// of its board; the exchanges' cost is its first exchange's.
pub fn start_of(game: &Game, kind: Kind) -> Result<Position<'static>, String> {
    let mut pos = match crate::ir::find_tag(&game.tags, "Position") {
        Some(i) => Position::parse(&game.tags[i].value)?,
        None => Position::start(kind),
    };
    pos.cost = exchange_cost(&game.moves);
    Ok(pos)
}

/// The position after every ply of a replayed game as its text writes it,
/// in the order the container writes the plies
/// ([`crate::family::positions`]); none for a game not replayed.
pub fn positions(game: &Game) -> Vec<Option<String>> {
    let start = game
        .variant
        .as_coerceo()
        .filter(|b| b.validated)
        .and_then(|b| start_of(game, b.game).ok());
    crate::family::hooks::positions_in_order(
        &game.moves,
        start,
        &mut |pos, plies, i| match plies[i].mv.as_coerceo().map(|m| m.turns()) {
            Some(Ok(turns)) => turns.into_iter().all(|w| pos.play(w.turn).is_ok()),
            _ => false,
        },
        &|pos, _| pos.text(),
    )
}

/// The positions of a replayed game's main line as their text writes
/// them: the start, then after each ply; `None` for a game not replayed.
pub fn main_line_positions(game: &Game) -> Option<Vec<String>> {
    let board = game.variant.as_coerceo()?;
    if !board.validated {
        return None;
    }
    let mut pos = start_of(game, board.game).ok()?;
    let mut out = vec![pos.text()];
    for ply in &game.moves.plies {
        let turns = ply.mv.as_coerceo()?.turns().ok()?;
        for w in turns {
            if pos.play(w.turn).is_err() {
                return Some(out);
            }
        }
        out.push(pos.text());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::ReadOptions;

    /// The seed's game as the corpus writes it.
    /// The position after the seed's last ply.
    const END_TEXT: &str =
        "w3w1/w5/w1w1w1/wb4/2w1w1/w3w1/w1w1w1/-/-/-/-/1b1b2/3b1b/-/2wbw1/-/-/-/- b 1:4";

    const SEED: &str = include_str!("../../../corpus/coerceo/european-championship-2012.coerceo");

    fn read(text: &str, no_validate: bool) -> Result<crate::codec::Parsed, crate::error::Problem> {
        let opts = ReadOptions {
            no_validate,
            ..ReadOptions::default()
        };
        super::super::notation::read(text, &opts)
    }

    fn moves(game: &Game) -> Vec<Move> {
        game.moves
            .plies
            .iter()
            .map(|p| p.mv.as_coerceo().unwrap().clone())
            .collect()
    }

    #[test]
    fn perft_from_both_starts() {
        // The counts NPN/coerceo's tests give (src/tests.rs); kifu's own
        // play gives the same.
        for (kind, counts) in [
            (Kind::Laurentius, [48, 2304, 110_304]),
            (Kind::Ocius, [26, 676, 17_234]),
        ] {
            let pos = Position::start(kind);
            for (depth, &n) in (1..).zip(counts.iter()) {
                assert_eq!(perft(&pos, depth), n, "{kind:?} depth {depth}");
            }
        }
        assert_eq!(Position::start(Kind::Laurentius).text(), START_TEXT);
        assert_eq!(
            Position::start(Kind::Ocius).text(),
            "1b2w1/2w1w1/3b1b/w3w1/1b3b/w1w3/1b1b2/-/-/-/-/-/-/-/-/-/-/-/- w 0:0"
        );
    }

    #[test]
    #[ignore = "slow in a debug build: cargo test --release -- --ignored perft"]
    fn perft_depth_four() {
        assert_eq!(perft(&Position::start(Kind::Laurentius), 4), 5_280_654);
        assert_eq!(perft(&Position::start(Kind::Ocius), 4), 435_572);
    }

    #[test]
    fn position_texts_read_back_and_errors_say_why() {
        for kind in [Kind::Laurentius, Kind::Ocius] {
            let p = Position::start(kind);
            assert_eq!(Position::parse(&p.text()).unwrap(), p);
        }
        for (bad, why) in [
            ("6 w 0:0", "1 tiles written"),
            (
                &START_TEXT.replace(" w ", " x "),
                "`x` is not the side to move",
            ),
            (&START_TEXT.replace("0:0", "0"), "White's, then Black's"),
            (&START_TEXT.replacen("6/", "w6/", 1), "tile 1 has 7 fields"),
            (&START_TEXT.replacen("6/", "b5/", 1), "a black piece on 1a"),
            (&START_TEXT.replacen("6/", "5/", 1), "tile 1 has 5 fields"),
            (
                &START_TEXT.replacen("6/", "6w/", 1),
                "tile 1 has more than 6 fields",
            ),
            (&START_TEXT.replace("0:0", "19:1"), "more than 19"),
        ] {
            let e = Position::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn the_seed_game_replays_whole() {
        let parsed = read(SEED, false).unwrap();
        let kinds: Vec<_> = parsed.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            [
                crate::error::Kind::ResultMismatch,
                crate::error::Kind::UnknownTile,
                crate::error::Kind::TurnOrder,
                crate::error::Kind::WrongTile,
                crate::error::Kind::UnknownTile
            ],
            "{:?}",
            parsed.warnings
        );
        let game = parsed.game;
        assert_eq!(game.moves.plies.len(), 165);
        let ms = moves(&game);
        let captures: usize = ms.iter().map(|m| m.captures().count()).sum();
        assert_eq!(captures, 14);
        // The rules' tiles for the record's T22, T12 and T23.
        let removed = |ply: usize| ms[ply - 1].removed().map(Tile::number).collect::<Vec<_>>();
        assert_eq!(
            (removed(27), removed(144), removed(160)),
            (vec![10], vec![9], vec![11])
        );
        // The end: White took Black's last piece but one? Count them.
        let mut pos = Position::start(Kind::Laurentius);
        for m in &ms {
            for w in m.turns().unwrap() {
                pos.play(w.turn).unwrap();
            }
        }
        assert_eq!(
            (pos.pieces_of(Side::White), pos.pieces_of(Side::Black)),
            (16, 6)
        );
        assert_eq!(pos.text(), END_TEXT);
    }

    #[test]
    fn the_seed_game_is_computed_back_from_its_bare_moves() {
        let full = read(SEED, false).unwrap().game;
        let mut bare = full.clone();
        for p in &mut bare.moves.plies {
            let m = p.mv.as_coerceo().unwrap().bare();
            p.mv = crate::family::any::Move::Coerceo(m);
        }
        let mut text = String::new();
        super::super::notation::write(&bare, &Default::default(), &mut text).unwrap();
        assert!(!text.contains(" T1") && text.contains("TT x19f"), "{text}");
        let back = read(&text, false).unwrap();
        assert_eq!(moves(&back.game), moves(&full));
        // Only the turn-order note: nothing written to correct.
        let kinds: Vec<_> = back.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            [
                crate::error::Kind::ResultMismatch,
                crate::error::Kind::TurnOrder
            ]
        );
    }

    #[test]
    fn a_turn_the_rules_refuse_is_an_error_with_the_position() {
        for (text, why) in [
            (
                "1# 4b-4d *",
                "1# 4b-4d: no White piece on 4b (position: 6/1b3b/",
            ),
            ("1# 3c-1a *", "1# 3c-1a: 1a is not a step from 3c"),
            ("1# 3c-3a *", "1# 3c-3a: 3a is taken"),
            (
                "1# 3c-3e 2# 4b-3d x3e *",
                "2# 4b-3d x3e: the rules capture nothing on 3e",
            ),
            (
                "1# 3c-3e 2# 4b-3d T4 *",
                "2# 4b-3d T4: tile 4 is not taken off the board (pieces stand on it: 4d)",
            ),
            (
                "1# TT x2b *",
                "1# TT x2b: White holds 0 tiles, and an exchange takes 2",
            ),
            (
                "1# 3c-3e 2# 4b-3d 3# T x3d *",
                "3# T x3d: White holds 0 tiles",
            ),
            ("1# 3c-3e TT *", "names no piece"),
        ] {
            let e = read(text, false).unwrap_err();
            assert!(e.message.contains(why), "{text}: {}", e.message);
            assert!(
                e.message.contains(", White to move)")
                    || e.message.contains("to move)")
                    || why.contains("names"),
                "{}",
                e.message
            );
        }
        // A Position tag: its game starts there.
        let text = "[Position \"6/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- w 0:0\"]\n\n1# TT x1b *";
        assert!(read(text, false).unwrap_err().message.contains("1# TT x1b"));
    }

    #[test]
    fn captures_and_removals_are_computed_and_checked() {
        // Tiles 1 and 2 alone: White's 2c steps to 1a, which encloses
        // Black's 1b (its third side, 3e, is off the board) and leaves
        // tile 2 empty, held by tile 1 alone: taken off, White's.
        let pos = "[Position \"1bw2b/2w3/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- w 0:0\"]\n\n";
        let g = read(&format!("{pos}1# 2c-1a *"), false).unwrap().game;
        let mut out = String::new();
        super::super::notation::write(&g, &Default::default(), &mut out).unwrap();
        assert!(out.ends_with("1# 2c-1a x1b T2 *\n"), "{out}");
        assert_eq!(
            main_line_positions(&g).unwrap()[1],
            "w1w2b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- b 1:0"
        );
        // Written, each is checked.
        assert!(read(&format!("{pos}1# 2c-1a x1b T2 *"), false).is_ok());
        for (written, why) in [
            ("2c-1a x1b", "the turn takes tile 2 off the board too"),
            ("2c-1a T2", "the turn captures 1b too"),
            ("2c-1a x1b x1f T2", "the rules capture nothing on 1f"),
            (
                "2c-1a x1b T1 T2",
                "tile 1 is not taken off the board (pieces stand on it: 1a, 1c, 1f)",
            ),
        ] {
            let e = read(&format!("{pos}1# {written} *"), false).unwrap_err();
            assert!(e.message.contains(why), "{written}: {}", e.message);
        }
        // One tile held: Black takes the last piece of White... with an
        // exchange of one tile (`T`) where the game is played so.
        let one = "[Position \"1bw2b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- b 0:1\"]\n\n";
        let g = read(&format!("{one}2# T x1c *"), false).unwrap().game;
        let m = moves(&g).remove(0);
        assert_eq!(m.captures().count(), 1);
        let e = read(&format!("{one}2# T x1c 3# 1a-1e *"), false).unwrap_err();
        assert!(
            e.message
                .contains("the game is over: White has no pieces left"),
            "{}",
            e.message
        );
        let e = read(&format!("{one}2# TT x1c *"), false).unwrap_err();
        assert!(
            e.message
                .contains("Black holds 1 tile, and an exchange takes 2"),
            "{}",
            e.message
        );
    }

    use crate::family::coerceo::Step;

    fn field(s: &str) -> Field {
        Field::parse(s).unwrap()
    }

    #[test]
    fn a_move_means_what_it_says() {
        let m = Move {
            step: Some(Step {
                from: field("8f"),
                to: field("19b"),
            }),
            actions: vec![
                Action::Exchange(Exchange::Two),
                Action::Capture(field("19f")),
                Action::Remove(Tile::new(8).unwrap()),
                Action::RemoveUnknown(22),
            ],
        };
        assert_eq!(m.from(), Some(field("8f")));
        assert_eq!(m.to(), Some(field("19b")));
        assert_eq!(m.captures().collect::<Vec<_>>(), [field("19f")]);
        assert_eq!(m.removed().collect::<Vec<_>>(), [Tile::new(8).unwrap()]);
        assert_eq!(m.exchanges().collect::<Vec<_>>(), [Exchange::Two]);
        assert_eq!(m.check(), Ok(()));
    }

    #[test]
    fn a_ply_needs_a_step_or_an_exchange_first() {
        let m = Move {
            step: None,
            actions: vec![Action::Capture(field("14a"))],
        };
        assert!(m.check().is_err());
        let m = Move {
            step: None,
            actions: vec![
                Action::Exchange(Exchange::One),
                Action::Capture(field("15c")),
            ],
        };
        assert_eq!(m.check(), Ok(()));
        let m = Move {
            step: None,
            actions: vec![Action::Exchange(Exchange::One), Action::RemoveUnknown(14)],
        };
        assert!(m.check().is_err());
    }

    #[test]
    fn fields_and_tiles_are_typed() {
        assert_eq!(field("14d").to_string(), "14d");
        assert_eq!(field("014d").to_string(), "14d");
        for bad in ["20a", "0a", "14g", "14", "d", "14dd", "14D"] {
            assert!(Field::parse(bad).is_err(), "{bad}");
        }
        assert!(Tile::new(19).is_some() && Tile::new(20).is_none() && Tile::new(0).is_none());
    }
}
