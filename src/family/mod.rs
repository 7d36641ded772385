//! The game families: the one list of them, and the one place that
//! dispatches on it. Each family is a folder (`chess/`, `draughts/`): its
//! own module (`mod.rs`) holds its square, piece, move and board types, its
//! result table and dialect, and imports nothing above the IR; its rules and
//! notations sit in the modules below it.
//!
//! The family is known in floors, so that no import circle crosses a
//! room's wall: [`kind`] (what each room's own module declares, [`Kind`]:
//! the room's types stand on it); [`any`] (the enums every family shares,
//! made of the rooms' types, which the IR holds); [`hooks`] (above the IR:
//! the hooks that need a family's rules, [`GameFamily`], which the rooms'
//! `hooks.rs` implement); and this module, above the rooms, which
//! dispatches on the family through the hooks.

/// The registration: one line per family, `Name(room::Type) as accessor`,
/// where `room::Type` is the unit type the room's own module declares (and
/// implements [`Kind`] for, and [`GameFamily`] in its rules' floor). Every
/// list of the families is made from it: the enums [`Family`], [`Variant`],
/// [`Move`] and [`Setup`] with their accessors ([`any`]), the dispatch on
/// the family (here), and what the formats, the XML schema and the docs
/// list (`kifu formats`, `tests/it/registry.rs`). A new family is its room,
/// one line here, its grammar and its formats' line in
/// [`crate::format::FORMATS`]. `then` is the macro that gets the lines.
macro_rules! registered {
    ($then:ident) => {
        $then! {
            /// Chess, standard and Fischer random.
            Chess(chess::Chess) as as_chess;
            /// Draughts and checkers on any board PDN describes.
            Draughts(draughts::Draughts) as as_draughts;
            /// Coerceo.
            Coerceo(coerceo::Coerceo) as as_coerceo;
            /// Hnefatafl and the other tafl games.
            Tafl(hnefatafl::Tafl) as as_tafl;
            /// Tenjiku shogi.
            Tenjiku(tenjiku::Tenjiku) as as_tenjiku;
        }
    };
}

pub mod any;
pub mod chess;
pub mod coerceo;
pub mod dialect;
pub mod draughts;
pub mod draw;
pub mod hnefatafl;
pub mod hooks;
pub mod kind;
pub mod spell;
pub mod tenjiku;

pub use any::{Family, Member, Move, Setup, Variant};
pub use hooks::{
    fields_in_order, plies_in_order, positions_in_order, Draw, Field, Fields, GameFamily,
    MoveFields, PlyFields, PlyOut, Schema,
};
pub use kind::{Kind, NoSetup};

use crate::error::Problem;
use crate::ir::Game;

/// The dispatch on the family of what needs its rules ([`GameFamily`]),
/// from the registration lines (`registered!`).
macro_rules! dispatch {
    ($( $(#[$doc:meta])* $name:ident ($($ty:ident)::+) as $acc:ident; )*) => {
        impl Variant {
            /// Checks a game that did not come through one of the family's
            /// grammars (JSON) by the family's rules
            /// ([`GameFamily::check`]).
            pub fn check(&self, game: &Game) -> Result<(), Problem> {
                match self { $( Variant::$name(b) => <$($ty)::+ as GameFamily>::check(game, b), )* }
            }
        }

        impl Move {
            /// What two transcriptions of a ply must share to be the same
            /// move (`kifu diff`): the meaning its family's rules gave it,
            /// so that `Nbd2` equals `Nd2`, a draughts path in full its
            /// compact form and a tafl move with its captures computed the
            /// same move with them written; with `loose`, only what the
            /// text says, for a game that could not be replayed and the
            /// game it is compared with.
            pub fn key(&self, loose: bool) -> String {
                match self { $( Move::$name(m) => <$($ty)::+ as GameFamily>::key(m, loose), )* }
            }
        }

        /// The positions of a game's main line as FENs, for `kifu diff`:
        /// the start, then the position after each ply; `None` for a
        /// family without a position notation kifu writes (or a game not
        /// replayed).
        pub fn main_line_fens(game: &Game) -> Option<Vec<String>> {
            match game.variant { $( Variant::$name(_) => <$($ty)::+ as GameFamily>::main_line_fens(game), )* }
        }

        /// The position after every ply of a game, in the order the
        /// container writes its plies ([`GameFamily::positions`]).
        pub fn positions(game: &Game) -> Vec<Option<String>> {
            match &game.variant { $( Variant::$name(b) => <$($ty)::+ as GameFamily>::positions(game, b), )* }
        }

        impl Family {
            /// The family's part of the XML schema
            /// ([`GameFamily::SCHEMA`]).
            pub fn schema(self) -> &'static hooks::Schema {
                match self { $( Family::$name => &<$($ty)::+ as GameFamily>::SCHEMA, )* }
            }

            /// How the family draws its boards ([`GameFamily::DRAW`]).
            fn drawing(self) -> Option<hooks::Draw> {
                match self { $( Family::$name => <$($ty)::+ as GameFamily>::DRAW, )* }
            }
        }

        /// The fields of every move of a game, in the order the container
        /// writes its plies (each ply, then its variations), written in
        /// `out` after what it holds: the one per-family hook of the `csv`
        /// tables ([`GameFamily::move_fields`]).
        pub fn write_move_fields(game: &Game, out: &mut Fields) -> Result<(), Problem> {
            match &game.variant { $( Variant::$name(b) => <$($ty)::+ as GameFamily>::move_fields(game, b, out), )* }
        }
    };
}

registered!(dispatch);

/// The fields of every move of a game, in the order the container writes
/// its plies (each ply, then its variations), each ply's owned
/// ([`write_move_fields`] keeps them in one text).
pub fn move_fields(game: &Game) -> Result<Vec<MoveFields>, Problem> {
    let mut fields = Fields::default();
    write_move_fields(game, &mut fields)?;
    Ok(fields.to_vec())
}

/// The game's main line drawn on its family's board
/// ([`GameFamily::DRAW`]), or the error that the family's boards are not
/// drawn yet, naming the families whose boards are.
pub fn diagram(game: &Game, view: &draw::View<'_>) -> Result<draw::Diagram, Problem> {
    let family = game.family();
    match family.drawing() {
        Some(draw) => draw(game, view),
        None => {
            let drawn: Vec<&str> = Family::ALL
                .iter()
                .filter(|f| f.drawing().is_some())
                .map(|f| f.name())
                .collect();
            Err(draw::not_drawn(family.name(), &drawn))
        }
    }
}

/// Every dialect's result table, to test a dialect's grammar against the
/// tokens of the others.
#[cfg(test)]
pub(crate) fn all_results() -> Vec<&'static crate::ir::Results> {
    use crate::family::any::Family;
    Family::ALL.iter().map(|f| f.results()).collect()
}

/// Requires a dialect's grammar and its result table to agree exactly:
/// parser `P`'s `result` rule must read the whole text of what the table
/// holds, and nothing else. Every token of the table, and its forms spaced around the dash,
/// must be read, and mean through the table (as the walker reads them)
/// what the table says; the tokens of every other table that this one
/// lacks, and near misses, must not be read.
#[cfg(test)]
pub(crate) fn check_grammar<P: pest::Parser<R>, R: pest::RuleType>(
    results: &crate::ir::Results,
    result: R,
) {
    let reads =
        |t: &str| P::parse(result, t).is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str() == t));
    for t in results.tokens() {
        assert!(reads(t.text), "the grammar does not read `{}`", t.text);
        assert_eq!(results.parse(t.text), Some(t.result), "{}", t.text);
        // A score's dash may be spaced (`1 - 0`); a forfeit's marks (`+--`)
        // are no score.
        let score = t.text.starts_with(|c: char| c.is_ascii_digit() || c == '½');
        if let Some(d) = t.text.find('-').filter(|_| score) {
            let (left, right) = (&t.text[..d], &t.text[d + 1..]);
            for spaced in [
                format!("{left} - {right}"),
                format!("{left}- {right}"),
                format!("{left} -{right}"),
                format!("{left}\t-  {right}"),
            ] {
                assert!(reads(&spaced), "the grammar does not read `{spaced}`");
                let (r, repair) = results.parse_damaged(&spaced).expect(&spaced);
                assert_eq!(
                    (r, repair),
                    (t.result, crate::ir::ResultRepair::Spaced),
                    "{spaced}"
                );
            }
        }
    }
    // Every token any dialect has had, which a table may have lost, and
    // near misses.
    let near = [
        "1-0",
        "0-1",
        "1/2-1/2",
        "½-½",
        "1/2",
        "*",
        "2-0",
        "0-2",
        "1-1",
        "0-0",
        "R",
        "W+R",
        "B+R",
        "1-2",
        "2-1",
        "3-0",
        "0-3",
        "2-2",
        "1/2-",
        "1/3-1/3",
        "1:0",
        "1--0",
        "0--0",
        "½",
        "**",
        "1-0-0",
        "0-0-0",
        "1-00",
        "10-0",
        "W+",
        "+R",
        "WR",
        "BR",
        "W-R",
        "R+",
        "RR",
        "r",
        "w+r",
        "b+r",
        "W+R+",
        "B+W",
        "1-0R",
        "Rx",
        "R1",
        "1/2-1/2-1/2",
    ];
    let others = all_results();
    let foreign = others
        .iter()
        .flat_map(|r| r.tokens())
        .map(|t| t.text)
        .chain(near);
    for text in foreign {
        if results.is_token(text.as_bytes()) {
            continue;
        }
        assert!(!reads(text), "the grammar reads `{text}`, not in its table");
    }
}
