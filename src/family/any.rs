//! A record of any family, below the IR: the enums every family shares
//! ([`Family`], [`Variant`], [`Move`], [`Setup`]), generated from the
//! registration (`registered!` in `family/mod.rs`) over what each room's
//! own module declares ([`Kind`]), and what they say without the
//! families' rules. The IR holds these; what needs a family's rules
//! (replay, checks, drawing) is dispatched above the IR, in
//! [`crate::family`].

use serde::{Deserialize, Serialize};

use crate::family::dialect::Dialect;
use crate::family::kind::Kind;
use crate::ir::result::Results;
use crate::ir::side::Side;

/// A registered family's place in the dispatching enums, generated for
/// each registration line: how its own kind of board, move and setup is
/// found in the enums every family shares.
pub trait Member: Kind {
    /// The family.
    const FAMILY: Family;
    /// The board, if `variant` is this family's.
    fn board(variant: &Variant) -> Option<&Self::Board>;
    /// The move, if `mv` is this family's.
    fn of_move(mv: &Move) -> Option<&Self::Move>;
    /// The move, to change it, if `mv` is this family's.
    fn of_move_mut(mv: &mut Move) -> Option<&mut Self::Move>;
    /// The position, if `setup` is this family's.
    fn setup(setup: &Setup) -> Option<&Self::Setup>;
}

/// The enums of the registered families and what they say without the
/// families' rules, from the registration lines (`registered!`).
macro_rules! kinds {
    ($( $(#[$doc:meta])* $name:ident ($($ty:ident)::+) as $acc:ident; )*) => {
        /// A family of games: notations of one family can be converted
        /// into each other.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Family {
            $( $(#[$doc])* $name, )*
        }

        impl Family {
            /// Every family, in registration order (the order `kifu
            /// formats` and the help list them in; no meaning is decided
            /// by it: [`crate::ir::GameResult::parse`]).
            pub const ALL: &'static [Family] = &[$( Family::$name ),*];

            /// The dialect of the family's container notations: its
            /// numbering and result tokens (for messages and results
            /// outside a notation: JSON, a Result tag).
            pub fn dialect(self) -> &'static Dialect {
                match self { $( Family::$name => <crate::family::$($ty)::+ as Kind>::DIALECT, )* }
            }

            /// The family's name as the CLI and `kifu formats` spell it.
            pub fn name(self) -> &'static str {
                match self { $( Family::$name => <crate::family::$($ty)::+ as Kind>::NAME, )* }
            }

            /// The family's canonical notation ([`Kind::CANONICAL`]).
            pub fn canonical_notation(self) -> &'static str {
                match self { $( Family::$name => <crate::family::$($ty)::+ as Kind>::CANONICAL, )* }
            }

            /// Whether the family's readers replay the moves, which
            /// `--no-validate` turns off ([`Kind::REPLAYS`]).
            pub fn replays(self) -> bool {
                match self { $( Family::$name => <crate::family::$($ty)::+ as Kind>::REPLAYS, )* }
            }
        }

        /// The game and board a record is played on: which family, and the
        /// family's board description.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "family", rename_all = "lowercase")]
        pub enum Variant {
            $(
                #[doc = concat!("A ", stringify!($name), " board.")]
                $name(<crate::family::$($ty)::+ as Kind>::Board),
            )*
        }

        impl Variant {
            $(
                #[doc = concat!("The board, if the game is ", stringify!($name), ".")]
                pub fn $acc(&self) -> Option<&<crate::family::$($ty)::+ as Kind>::Board> {
                    <crate::family::$($ty)::+ as Member>::board(self)
                }
            )*

            /// The family this variant belongs to.
            pub fn family(&self) -> Family {
                match self { $( Variant::$name(_) => Family::$name, )* }
            }

            /// The side that makes the first move of a game from the
            /// initial position.
            pub fn first_mover(&self) -> Side {
                match self { $( Variant::$name(b) => <crate::family::$($ty)::+ as Kind>::first_mover(b), )* }
            }
        }

        /// A starting position given by the record (a FEN tag or its
        /// equivalent).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Setup {
            $(
                #[doc = concat!("A ", stringify!($name), " position.")]
                $name(<crate::family::$($ty)::+ as Kind>::Setup),
            )*
        }

        impl Setup {
            $(
                #[doc = concat!("The position, if the setup is ", stringify!($name), "'s.")]
                pub fn $acc(&self) -> Option<&<crate::family::$($ty)::+ as Kind>::Setup> {
                    <crate::family::$($ty)::+ as Member>::setup(self)
                }
            )*
        }

        /// One move of any family.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Move {
            $(
                #[doc = concat!("A ", stringify!($name), " move.")]
                $name(<crate::family::$($ty)::+ as Kind>::Move),
            )*
        }

        impl Move {
            $(
                #[doc = concat!("The move, if it is a ", stringify!($name), " move. (Family code asks for its own kind of move through these.)")]
                // A match on the tag, called a ply through `Move::of`:
                // inlined where the compiler would not always.
                #[inline(always)]
                pub fn $acc(&self) -> Option<&<crate::family::$($ty)::+ as Kind>::Move> {
                    <crate::family::$($ty)::+ as Member>::of_move(self)
                }
            )*

            /// The family the move belongs to.
            pub fn family(&self) -> Family {
                match self { $( Move::$name(_) => Family::$name, )* }
            }

            /// Appends the move's JSON as `serde_json` writes it
            /// (`{"chess":{"move":{...}}}`), put together from its parts
            /// (with `csv`, each quote doubled, as in a `csv` field), where
            /// its family puts it together so ([`Kind::json_parts`]), and
            /// gives true; else false, `out` as it was.
            #[inline]
            pub fn json_parts(&self, csv: bool, out: &mut String) -> bool {
                let at = out.len();
                match self { $( Move::$name(m) => {
                    // Tagged with the family's name ([`Kind::NAME`]).
                    out.push_str(if csv { "{\"\"" } else { "{\"" });
                    out.push_str(<crate::family::$($ty)::+ as Kind>::NAME);
                    out.push_str(if csv { "\"\":" } else { "\":" });
                    if !<crate::family::$($ty)::+ as Kind>::json_parts(m, csv, out) {
                        out.truncate(at);
                        return false;
                    }
                    out.push('}');
                    true
                } )* }
            }

            /// The move as a number, where its family's moves pack into one
            /// ([`Kind::pack`]): its family's number above the family's
            /// packing (below 2^50), so that equal numbers are equal moves
            /// whatever their family.
            #[inline(always)]
            pub fn packed(&self) -> Option<u64> {
                match self { $( Move::$name(m) => <crate::family::$($ty)::+ as Kind>::pack(m)
                    .filter(|&p| p < 1 << 50)
                    .map(|p| (Family::$name as u64) << 50 | p), )* }
            }
        }

        $(
            impl Member for crate::family::$($ty)::+ {
                const FAMILY: Family = Family::$name;
                fn board(variant: &Variant) -> Option<&Self::Board> {
                    #[allow(unreachable_patterns)]
                    match variant { Variant::$name(b) => Some(b), _ => None }
                }
                #[inline(always)]
                fn of_move(mv: &Move) -> Option<&Self::Move> {
                    #[allow(unreachable_patterns)]
                    match mv { Move::$name(m) => Some(m), _ => None }
                }
                fn of_move_mut(mv: &mut Move) -> Option<&mut Self::Move> {
                    #[allow(unreachable_patterns)]
                    match mv { Move::$name(m) => Some(m), _ => None }
                }
                fn setup(setup: &Setup) -> Option<&Self::Setup> {
                    #[allow(unreachable_patterns)]
                    match setup { Setup::$name(s) => Some(s), _ => None }
                }
            }
        )*
    };
}

registered!(kinds);

impl Family {
    /// The family's result tokens.
    pub fn results(self) -> &'static Results {
        self.dialect().results
    }
}

impl Move {
    /// The move as its family's own kind (`pick`: one of the `as_*`
    /// accessors), or the error for a move of another family met in a game
    /// of `family` (`a draughts move in a tafl game`).
    #[inline(always)]
    pub fn of<'m, M>(
        &'m self,
        family: Family,
        pick: fn(&'m Move) -> Option<&'m M>,
    ) -> Result<&'m M, String> {
        pick(self).ok_or_else(|| {
            format!(
                "a {} move in a {} game",
                self.family().name(),
                family.name()
            )
        })
    }
}

impl Family {
    /// The error of a game of this family given to the writer of `format`,
    /// a notation of another family: every writer says it so.
    pub fn cannot_be_written_as(self, format: &str) -> crate::error::Problem {
        crate::error::Problem::whole(format!(
            "a {} game cannot be written as {format}",
            self.name()
        ))
        .of_kind(crate::error::Kind::WrongFamily)
    }
}
