//! The hooks only a family knows, which need its rules ([`GameFamily`]),
//! and what the rooms share to answer them (the `csv` fields of a move).
//! Above the IR and below the dispatch (`family/mod.rs`), so that a room
//! implements them without naming the registry.

use crate::error::Problem;
use crate::family::any::{Family, Move};
use crate::family::draw;
use crate::family::kind::Kind;
use crate::ir::{Game, Line, Ply};

/// A game family, as its room registers it: the hooks that need its rules,
/// over what its own module declares ([`Kind`]). Everything that
/// dispatches on the family is generated from the one registration line
/// of each family (`registered!` in `family/mod.rs`), from these traits.
pub trait GameFamily: Kind {
    /// Checks a game that did not come through one of the family's
    /// grammars (JSON) by the family's rules: the board is one kifu
    /// handles, and every move is possible on it.
    fn check(game: &Game, board: &Self::Board) -> Result<(), Problem>;
    /// What two transcriptions of a move must share to be the same move
    /// (`kifu diff`): see [`Move::key`].
    fn key(mv: &Self::Move, loose: bool) -> String;
    /// The `csv` fields of every move of a game, in the order the
    /// container writes its plies, each ply's after the others in `out`
    /// ([`Fields::ply`]; [`crate::family::move_fields`]).
    fn move_fields(game: &Game, board: &Self::Board, out: &mut Fields) -> Result<(), Problem>;
    /// The positions of the main line as the family's position notation
    /// writes them (the start, then after each ply), for `kifu diff`;
    /// `None` (the default) for a family without one kifu writes.
    fn main_line_fens(_game: &Game) -> Option<Vec<String>> {
        None
    }
    /// The position after every ply of a game as the family's position
    /// text writes it (chess FEN, draughts FEN, ...), in the order
    /// [`GameFamily::move_fields`] gives the plies: the `fen` column of the
    /// `csv` tables ([`crate::family::positions`]), through
    /// [`positions_in_order`]; `None` where it is not known (a game not
    /// replayed, a ply the rules refuse and those after it). By default
    /// none is known.
    fn positions(game: &Game, _board: &Self::Board) -> Vec<Option<String>> {
        vec![None; plies_in_order(&game.moves).len()]
    }
    /// How the family draws a game's main line on its board
    /// ([`draw::Diagram`], the `svg` and `html` formats), from the
    /// positions its replay gives; `None` (the default) for a family whose
    /// boards are not drawn yet, whose games fail with that error, naming
    /// the families that are ([`crate::family::diagram`]).
    const DRAW: Option<Draw> = None;
    /// The family's part of the XML schema of the `xml` format.
    const SCHEMA: Schema;
}

/// A family's part of the XML schema (`schema/kifu.xsd`, which
/// [`crate::interchange::xml::xsd`] makes from every family's).
#[derive(Debug)]
pub struct Schema {
    /// The attributes of `<variant>` that the family's board has, as
    /// schema text, one `<xs:attribute>` after another; an attribute
    /// several families' boards have is written once, and must read the
    /// same in each.
    pub board: &'static str,
    /// The type of the family's element in `<setup>`; `None` for a family
    /// whose records give no start position.
    pub setup: Option<&'static str>,
    /// The types of the family's moves as schema text (the room's
    /// `schema.xsd`): first of all `NameMove` (`ChessMove`: the
    /// registration's name), the type of its element in `<ply>`.
    pub types: &'static str,
}

/// A family's drawing of a game's main line ([`GameFamily::DRAW`]).
pub type Draw = fn(&Game, &draw::View<'_>) -> Result<draw::Diagram, Problem>;

/// The typed fields of one move, as the `csv` tables write them
/// ([`crate::family::move_fields`]): what a database query asks of a move, in any family.
/// `None` (NULL) where the family's records do not say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveFields {
    /// The move as the family's canonical notation
    /// ([`Family::canonical_notation`]) spells it where it stands (chess
    /// SAN with its check mark, a draughts path as held, CGN, tafl,
    /// Hodges): kifu keeps a move's meaning, not its source text. (The
    /// `csv` writer puts the spelling of the format a game was read from
    /// in its place: [`crate::spell`].)
    pub written: String,
    /// The family's notation-independent form of the move: chess long
    /// algebraic (`g1f3`, `e7e8q`), tenjiku with its origin (`FiD7n-6k`);
    /// the written form where the family's notation is already complete.
    pub canonical: String,
    /// The square (field) the piece left.
    pub from: Option<String>,
    /// The square (field) the piece reached.
    pub to: Option<String>,
    /// The squares of the pieces it took off the board, in order.
    pub captured: Vec<String>,
    /// The piece that moved, as the family abbreviates it.
    pub piece: Option<String>,
    /// What the piece became (chess: the new piece; tenjiku: the promoted
    /// piece).
    pub promotion: Option<String>,
    /// Whether the move gives check (chess).
    pub check: Option<bool>,
    /// Whether the move mates (chess) or wins at once (tafl `++`).
    pub mate: Option<bool>,
}

/// The `csv` fields of every move of a game in the order the container
/// writes them, for a family whose moves spell without a board: `fields`
/// of each move as the family's own kind (`pick`, see [`Move::of`]),
/// written as the next ply's in `out` ([`Fields::ply`]).
pub fn fields_in_order<M>(
    game: &Game,
    family: Family,
    pick: for<'m> fn(&'m Move) -> Option<&'m M>,
    out: &mut Fields,
    fields: impl Fn(&M, &mut PlyOut<'_>) -> Result<(), Problem>,
) -> Result<(), Problem> {
    for ply in plies_in_order(&game.moves) {
        let mv = ply
            .mv
            .of(family, pick)
            .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::WrongFamily))?;
        out.ply(|out| fields(mv, out))?;
    }
    Ok(())
}

/// One text field of a move ([`MoveFields`]), as [`Fields`] holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// [`MoveFields::written`].
    Written,
    /// [`MoveFields::canonical`].
    Canonical,
    /// [`MoveFields::from`].
    From,
    /// [`MoveFields::to`].
    To,
    /// [`MoveFields::captured`], the squares one after another, a space
    /// between them.
    Captured,
    /// [`MoveFields::piece`].
    Piece,
    /// [`MoveFields::promotion`].
    Promotion,
}

impl Field {
    /// Every field, in the order of their columns.
    pub const ALL: [Field; FIELDS] = [
        Field::Written,
        Field::Canonical,
        Field::From,
        Field::To,
        Field::Captured,
        Field::Piece,
        Field::Promotion,
    ];
}

/// The number of [`Field`]s.
pub const FIELDS: usize = 7;

/// Where each field of one ply lies in [`Fields`]' text (NULL where its
/// bit of `set` is not), and its flags.
#[derive(Debug, Clone, Copy, Default)]
struct Spans {
    /// Each field's start and end in its text, where `set` says it has one.
    at: [(u32, u32); FIELDS],
    /// The fields that are not NULL, a bit each (`1 << field`).
    set: u8,
    check: Option<bool>,
    mate: Option<bool>,
}

impl Spans {
    /// A field's span, `None` where it is NULL.
    #[inline(always)]
    fn of(&self, field: Field) -> Option<(u32, u32)> {
        (self.set & (1 << field as u8) != 0).then(|| self.at[field as usize])
    }
}

/// The move fields of a game's plies ([`MoveFields`]), kept as spans of
/// a text a field: each ply's fields are written where they are (a
/// square's name, a spelling) with no string of their own, each field's
/// after the plies' before it, so that a field's text is, as a rule, its
/// values one after another ([`Fields::placed`]): the text of its column
/// in a table written a column at a time, handed over whole
/// ([`Fields::drain_placed`]). A family writes each ply's fields through
/// [`Fields::ply`].
#[derive(Debug, Clone, Default)]
pub struct Fields {
    texts: [String; FIELDS],
    plies: Vec<Spans>,
    /// The fields (a bit each) whose text is not each ply's value one
    /// after another: a value put in place of another ([`Fields::replace`])
    /// or a field written twice for a ply.
    scattered: u8,
}

/// The room [`Fields::with_capacity`] keeps a ply for each field's text:
/// a chess ply's (a move, the canonical move, two squares, a piece).
const ROOM: [usize; FIELDS] = [6, 5, 2, 2, 1, 1, 1];

/// An offset within a field's text: a game's fields are far below 4 GiB
/// (a record's limit is 16 MiB), so it is kept in 32 bits.
#[inline(always)]
fn offset(at: usize) -> u32 {
    at as u32
}

impl Fields {
    /// Fields with room for `plies` plies (a game's main line, say), so
    /// that they are not copied as they grow.
    pub fn with_capacity(plies: usize) -> Fields {
        let mut fields = Fields::default();
        fields.reset(plies);
        fields
    }

    /// Empties the fields for another game of `plies` plies, their room
    /// kept (one `Fields` used game after game allocates once).
    pub fn reset(&mut self, plies: usize) {
        for (text, room) in self.texts.iter_mut().zip(ROOM) {
            text.clear();
            text.reserve(plies * room);
        }
        self.plies.clear();
        self.plies.reserve(plies);
        self.scattered = 0;
    }

    /// Writes the next ply's fields with `write` (every field NULL and no
    /// flags until it writes them), then adds them after the plies' before
    /// it. The ply's spans are kept in the [`PlyOut`] while it is written
    /// and added once, not looked up again for each field. Returns what
    /// `write` returns.
    #[inline(always)]
    pub fn ply<R>(&mut self, write: impl FnOnce(&mut PlyOut<'_>) -> R) -> R {
        let mut out = PlyOut {
            texts: &mut self.texts,
            spans: Spans::default(),
            again: 0,
        };
        let r = write(&mut out);
        let (spans, again) = (out.spans, out.again);
        self.plies.push(spans);
        self.scattered |= again;
        r
    }

    /// Puts `text` in place of a field of the `i`th ply (the spelling of
    /// the format a game was read from for [`Field::Written`]); its other
    /// fields keep theirs.
    pub fn replace(&mut self, i: usize, field: Field, text: &str) {
        let into = &mut self.texts[field as usize];
        let start = offset(into.len());
        into.push_str(text);
        let span = (start, offset(into.len()));
        if let Some(spans) = self.plies.get_mut(i) {
            spans.at[field as usize] = span;
            spans.set |= 1 << field as u8;
        }
        self.scattered |= 1 << field as u8;
    }

    /// Each field's text, every value of it a span of it.
    pub fn texts(&self) -> &[String; FIELDS] {
        &self.texts
    }

    /// Whether each field's text is its plies' values one after another
    /// (none written twice for a ply nor put in place of another): the
    /// texts [`Fields::drain_placed`] hands over.
    pub fn placed(&self) -> bool {
        self.scattered == 0
    }

    /// Hands each field's text to `take` (which swaps it with an empty
    /// one, say) where the texts are [`Fields::placed`], and empties the
    /// fields.
    pub fn drain_placed(&mut self, mut take: impl FnMut(Field, &mut String)) {
        if self.placed() {
            for (field, text) in Field::ALL.into_iter().zip(&mut self.texts) {
                take(field, text);
            }
        }
        self.reset(0);
    }

    /// How many plies have fields.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no ply has fields.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The fields of the `i`th ply.
    pub fn get(&self, i: usize) -> Option<PlyFields<'_>> {
        self.plies.get(i).map(|spans| PlyFields {
            texts: &self.texts,
            spans,
        })
    }

    /// Each ply's fields, owned.
    pub fn to_vec(&self) -> Vec<MoveFields> {
        (0..self.len())
            .filter_map(|i| self.get(i))
            .map(|f| f.to_owned())
            .collect()
    }
}

/// The fields of the ply being written ([`Fields::ply`]): each field
/// appended to its text, its span kept here until the ply is added.
#[derive(Debug)]
pub struct PlyOut<'f> {
    texts: &'f mut [String; FIELDS],
    spans: Spans,
    /// The fields written twice for this ply, a bit each.
    again: u8,
}

impl PlyOut<'_> {
    /// Puts `start..end` of its text as `field` (`None`: NULL).
    #[inline(always)]
    fn put(&mut self, field: Field, span: Option<(u32, u32)>) {
        let bit = 1u8 << field as u8;
        // A second value leaves the first in the text.
        self.again |= self.spans.set & bit;
        match span {
            Some(span) => {
                self.spans.at[field as usize] = span;
                self.spans.set |= bit;
            }
            None => self.spans.set &= !bit,
        }
    }

    /// Writes a field with `write`: what it appends to the text is the
    /// field (the empty string where it appends nothing). Returns what
    /// `write` returns.
    #[inline(always)]
    pub fn write<R>(&mut self, field: Field, write: impl FnOnce(&mut String) -> R) -> R {
        let text = &mut self.texts[field as usize];
        let start = offset(text.len());
        let r = write(text);
        let end = offset(text.len());
        self.put(field, Some((start, end)));
        r
    }

    /// Sets a field to `text`.
    #[inline(always)]
    pub fn set(&mut self, field: Field, text: &str) {
        self.write(field, |t| crate::ir::push_short(t, text));
    }

    /// Makes a field the same text as another (the canonical form where
    /// it is the written one): a copy of it, NULL where that is.
    pub fn same(&mut self, field: Field, like: Field) {
        let Some((start, end)) = self.spans.of(like) else {
            return self.put(field, None);
        };
        // (A field is the same as itself already.)
        if let Ok([to, from]) = self.texts.get_disjoint_mut([field as usize, like as usize]) {
            let at = to.len();
            to.push_str(from.get(start as usize..end as usize).unwrap_or_default());
            let span = (offset(at), offset(to.len()));
            self.put(field, Some(span));
        }
    }

    /// Adds a captured square, written by `write`, to
    /// [`Field::Captured`] (a space before it where one is there).
    pub fn capture(&mut self, write: impl FnOnce(&mut String)) {
        let field = Field::Captured;
        let text = &mut self.texts[field as usize];
        let end = offset(text.len());
        let start = match self.spans.of(field) {
            // The squares so far end the text: the next follows them.
            Some((start, e)) if e == end => {
                text.push(' ');
                start
            }
            // (Only this ply's squares are written to the text after its
            // squares so far: they end it.)
            Some((start, e)) => {
                let (start, e) = (start as usize, e as usize);
                text.extend_from_within(start..e);
                text.push(' ');
                self.again |= 1 << field as u8;
                end
            }
            None => end,
        };
        write(text);
        self.spans.at[field as usize] = (start, offset(text.len()));
        self.spans.set |= 1 << field as u8;
    }

    /// Sets the flags: whether the move gives check and whether it mates
    /// (or wins at once).
    #[inline(always)]
    pub fn flags(&mut self, check: Option<bool>, mate: Option<bool>) {
        (self.spans.check, self.spans.mate) = (check, mate);
    }
}

/// The fields of one ply in [`Fields`].
#[derive(Debug, Clone, Copy)]
pub struct PlyFields<'f> {
    texts: &'f [String; FIELDS],
    spans: &'f Spans,
}

impl<'f> PlyFields<'f> {
    /// A text field (`None`: NULL).
    #[inline(always)]
    pub fn get(&self, field: Field) -> Option<&'f str> {
        let (start, end) = self.spans.of(field)?;
        self.texts[field as usize].get(start as usize..end as usize)
    }

    /// A text field's length in bytes (`None`: NULL), its text not
    /// looked at.
    #[inline(always)]
    pub fn len(&self, field: Field) -> Option<usize> {
        let (start, end) = self.spans.of(field)?;
        Some(end.saturating_sub(start) as usize)
    }

    /// Whether the move gives check.
    pub fn check(&self) -> Option<bool> {
        self.spans.check
    }

    /// Whether the move mates (or wins at once).
    pub fn mate(&self) -> Option<bool> {
        self.spans.mate
    }

    /// The fields as [`MoveFields`].
    pub fn to_owned(&self) -> MoveFields {
        let text = |f| self.get(f).map(String::from);
        MoveFields {
            written: text(Field::Written).unwrap_or_default(),
            canonical: text(Field::Canonical).unwrap_or_default(),
            from: text(Field::From),
            to: text(Field::To),
            captured: self
                .get(Field::Captured)
                .map(|c| c.split(' ').map(String::from).collect())
                .unwrap_or_default(),
            piece: text(Field::Piece),
            promotion: text(Field::Promotion),
            check: self.check(),
            mate: self.mate(),
        }
    }
}

/// The position after each ply of a line and its variations, in the order
/// the container writes them (each ply, then its variations, which start
/// from the position before their ply), as `text` writes the position and
/// the ply just played: the one walk of every family's
/// [`GameFamily::positions`]. `play` plays the `i`th ply of `plies` (the
/// rest of its line is there for rules that look ahead) and says whether
/// it could; after a ply it cannot play, and everywhere without a
/// `start`, no position is known (`None`).
pub fn positions_in_order<P: Clone>(
    line: &Line,
    start: Option<P>,
    play: &mut dyn FnMut(&mut P, &[Ply], usize) -> bool,
    text: &dyn Fn(&P, &Ply) -> String,
) -> Vec<Option<String>> {
    type Play<'a, P> = &'a mut dyn FnMut(&mut P, &[Ply], usize) -> bool;
    fn walk<P: Clone>(
        line: &Line,
        mut pos: Option<P>,
        play: Play<'_, P>,
        text: &dyn Fn(&P, &Ply) -> String,
        out: &mut Vec<Option<String>>,
    ) {
        for (i, ply) in line.plies.iter().enumerate() {
            let before = match ply.variations.is_empty() {
                true => None,
                false => pos.clone(),
            };
            if let Some(p) = pos.as_mut() {
                if !play(p, &line.plies, i) {
                    pos = None;
                }
            }
            out.push(pos.as_ref().map(|p| text(p, ply)));
            for v in &ply.variations {
                walk(v, before.clone(), play, text, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(line, start, play, text, &mut out);
    out
}

/// The plies of a line and its variations, in the order the container
/// writes them (each ply, then its variations).
pub fn plies_in_order(line: &Line) -> Vec<&Ply> {
    fn walk<'g>(line: &'g Line, out: &mut Vec<&'g Ply>) {
        for ply in &line.plies {
            out.push(ply);
            for v in &ply.variations {
                walk(v, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(line, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The fields of one ply, and in which order a family writes them:
    /// any text (spaces and several-byte characters among it), squares
    /// captured (no spaces in a square's name), canonical written as its
    /// own text or as the written one's ([`Fields::same`]).
    fn ply_fields() -> impl Strategy<Value = (MoveFields, bool, Vec<usize>)> {
        let text = "[a-z0-9 \u{e9}\u{1F600},\"]{0,5}";
        let opt = proptest::option::of(text);
        (
            text,
            text,
            (opt.clone(), opt.clone(), opt.clone(), opt),
            proptest::collection::vec("[a-z0-9\u{e9}]{1,3}", 0..4),
            (
                proptest::option::of(any::<bool>()),
                proptest::option::of(any::<bool>()),
            ),
            any::<bool>(),
            Just((0..7).collect::<Vec<usize>>()).prop_shuffle(),
        )
            .prop_map(
                |(
                    written,
                    canonical,
                    (from, to, piece, promotion),
                    captured,
                    (check, mate),
                    same,
                    order,
                )| {
                    let canonical = if same { written.clone() } else { canonical };
                    let fields = MoveFields {
                        written,
                        canonical,
                        from,
                        to,
                        captured,
                        piece,
                        promotion,
                        check,
                        mate,
                    };
                    (fields, same, order)
                },
            )
    }

    proptest! {
        /// Whatever order a family writes a ply's fields in, each reads
        /// back as written, and as [`MoveFields`] the same; a spelling put
        /// in place of `written` leaves `canonical` as it was.
        #[test]
        fn the_fields_of_any_plies_read_back_as_written(
            plies in proptest::collection::vec(ply_fields(), 0..6),
            replaced in proptest::option::of((0usize..6, "[a-z+#]{0,4}")),
        ) {
            let mut fields = Fields::default();
            for (f, same, order) in &plies {
                fields.ply(|fields| {
                    for &i in order {
                        match i {
                            0 => fields.set(Field::Written, &f.written),
                            1 if !same => fields.set(Field::Canonical, &f.canonical),
                            2 => {
                                if let Some(v) = &f.from {
                                    fields.set(Field::From, v);
                                }
                            }
                            3 => {
                                if let Some(v) = &f.to {
                                    fields.write(Field::To, |t| t.push_str(v));
                                }
                            }
                            // The captured squares one at a time, another
                            // field written between two of them.
                            4 => {
                                for (n, sq) in f.captured.iter().enumerate() {
                                    fields.capture(|t| t.push_str(sq));
                                    if n == 0 {
                                        if let Some(p) = &f.piece {
                                            fields.set(Field::Piece, p);
                                        }
                                    }
                                }
                            }
                            5 => {
                                if let Some(v) = &f.piece {
                                    fields.set(Field::Piece, v);
                                }
                            }
                            6 => {
                                if let Some(v) = &f.promotion {
                                    fields.set(Field::Promotion, v);
                                }
                            }
                            _ => {}
                        }
                    }
                    if *same {
                        // After `written` is set, wherever it came in the order.
                        fields.same(Field::Canonical, Field::Written);
                    }
                    fields.flags(f.check, f.mate);
                });
            }
            let mut want: Vec<MoveFields> = plies.iter().map(|p| p.0.clone()).collect();
            if let Some((i, text)) = &replaced {
                fields.replace(*i, Field::Written, text);
                if let Some(w) = want.get_mut(*i) {
                    w.written = text.clone();
                }
            }
            prop_assert_eq!(fields.len(), want.len());
            prop_assert_eq!(fields.to_vec(), want);
            // Each field's text is its values one after another, handed
            // over whole, unless a value was replaced or one written
            // twice (the piece, among the captured squares, then again).
            let twice = plies.iter().any(|(f, _, _)| !f.captured.is_empty() && f.piece.is_some());
            prop_assert_eq!(fields.placed(), replaced.is_none() && !twice);
            let joined: Vec<(Field, String)> = Field::ALL
                .into_iter()
                .map(|field| {
                    let values = (0..fields.len()).filter_map(|i| fields.get(i)?.get(field));
                    (field, values.collect())
                })
                .collect();
            let placed = fields.placed();
            let mut drained = Vec::new();
            fields.drain_placed(|field, text| drained.push((field, std::mem::take(text))));
            prop_assert_eq!(drained, if placed { joined } else { Vec::new() });
            prop_assert!(fields.is_empty());
        }
    }
}
