//! What a container notation makes of the shared container: its dialect.
//!
//! Every container notation (pgn, draughts-num, draughts-diag, coerceo, ...)
//! reads and writes the same frame (tags, comments, NAGs, glyphs,
//! variations), and differs in three things, which its [`Dialect`] says:
//! how plies are numbered ([`Numbering`]), which result tokens end a game
//! ([`Results`], the IR's: the one definition of them, read by the record scanner, the
//! fast lexer, the container walker and the writer) and how movetext is laid
//! out in lines ([`Layout`]).
//!
//! pest grammars cannot read a Rust table, so each dialect's grammar keeps
//! its own `result_token` rule; a unit test per dialect
//! (`check_grammar`) requires grammar and table to agree exactly.

use crate::ir::result::Results;
use crate::ir::side::Side;

/// How a dialect numbers its plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// One number a move pair, as chess and draughts write them: `12.`
    /// before the first mover's move, `12...` before the other's when it
    /// does not follow its partner (after a comment or variation, or first
    /// in a line).
    Pair,
    /// One number a ply, the number and then `mark` (`1#`, `2#`, as Coerceo
    /// writes them): plies count from 1, the first mover's are odd.
    Ply {
        /// The mark after the digits (`#`).
        mark: u8,
    },
}

impl Numbering {
    /// The byte that follows the digits of a move number (`.` or `#`).
    pub fn mark(self) -> u8 {
        match self {
            Numbering::Pair => b'.',
            Numbering::Ply { mark } => mark,
        }
    }

    /// The side a line's first move number names, if it names one: `12...`
    /// names the side that does not move first, a per-ply number names the
    /// first mover when odd.
    pub fn side_of(self, text: &str, number: u32, first: Side) -> Option<Side> {
        match self {
            Numbering::Pair => {
                let dots = text.len() - text.trim_end_matches(['.', '…']).len();
                (dots >= 2 || text.ends_with('…')).then_some(first.other())
            }
            Numbering::Ply { .. } => Some(if number % 2 == 1 {
                first
            } else {
                first.other()
            }),
        }
    }

    /// The digits of a move number token (`12` of `12...`, `3` of `3#`).
    pub fn digits(self, text: &str) -> &str {
        let end = text
            .bytes()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(text.len());
        &text[..end]
    }

    /// A ply's number as messages write it: by move pair `12.` for the side
    /// that moves first in the game (`first`), `12...` for the other; `12#`
    /// by ply.
    pub fn label(self, number: u32, side: Side, first: Side) -> String {
        match self {
            Numbering::Pair if side == first => format!("{number}."),
            Numbering::Pair => format!("{number}..."),
            Numbering::Ply { mark } => format!("{number}{}", char::from(mark)),
        }
    }
}

/// How movetext is laid out in lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Layout {
    /// One paragraph wrapped at 80 columns; a token (a move with its
    /// number, a comment) is never split, so a longer one keeps its own line.
    #[default]
    Paragraph,
    /// One line a move pair: each move of the side that moves first on the
    /// main line starts a line, and its reply follows on it (Coerceo's
    /// `columns`). Lines are not wrapped.
    Pairs,
}

/// What a container notation makes of the shared container.
#[derive(Debug)]
pub struct Dialect {
    /// The dialect's name, for messages.
    pub name: &'static str,
    /// How plies are numbered.
    pub numbering: Numbering,
    /// The result tokens that end a game.
    pub results: &'static Results,
    /// The layouts a writer offers, by name; the first is canonical.
    pub layouts: &'static [(&'static str, Layout)],
    /// The tags the family's readers lift into typed fields (a setup, a
    /// board): the first of each name is read ([`crate::ir::find_tag`]),
    /// and a repeat is kept as written with a warning that it was not.
    pub lifted: &'static [&'static str],
}

impl Dialect {
    /// The layout of this name.
    pub fn layout(&self, name: &str) -> Option<Layout> {
        self.layouts
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, l)| l)
    }

    /// The canonical layout.
    pub fn canonical_layout(&self) -> Layout {
        self.layouts.first().map_or(Layout::Paragraph, |&(_, l)| l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::ReadOptions;
    use crate::container::{self, Style};
    use crate::family::chess::pgn;
    use crate::ir::{GameResult, Outcome};

    fn written(text: &str, numbering: Numbering, layout: Layout) -> String {
        let game = pgn::read(text, &ReadOptions::default()).unwrap().game;
        let dialect = Dialect {
            name: "test",
            numbering,
            results: &crate::family::chess::RESULTS,
            layouts: &[],
            lifted: &[],
        };
        let mut out = String::new();
        let style = Style {
            glyphs_as_nags: false,
            layout,
        };
        // Spelled as the text said (no replay here): the SAN of these
        // moves needs no disambiguation or check mark.
        container::write(&game, &[], &mut out, &dialect, style, |ply, buf| {
            let p = ply.mv.as_chess().expect("a chess game");
            crate::family::chess::spell(p, Default::default(), buf);
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn numbering_and_layout_come_from_the_dialect() {
        let game = "1. e4 e5 {c} 2. Nf3 (2. f4 d6) 2... Nc6 3. Bb5 1-0";
        assert_eq!(
            written(game, Numbering::Pair, Layout::Paragraph),
            "1. e4 e5 {c} 2. Nf3 (2. f4 d6) 2... Nc6 3. Bb5 1-0\n"
        );
        assert_eq!(
            written(game, Numbering::Pair, Layout::Pairs),
            "1. e4 e5 {c}\n2. Nf3 (2. f4 d6) 2... Nc6\n3. Bb5 1-0\n"
        );
        // Read by pair, numbered by ply: the numbers are the pair's.
        assert_eq!(
            written(game, Numbering::Ply { mark: b'#' }, Layout::Pairs),
            "1# e4 1# e5 {c}\n2# Nf3 (2# f4 2# d6) 2# Nc6\n3# Bb5 1-0\n"
        );
    }

    #[test]
    fn paragraphs_wrap_at_80_and_pairs_do_not() {
        let comment = "x".repeat(70);
        let game = format!("1. e4 {{{comment}}} e5 2. Nf3 *");
        assert_eq!(
            written(&game, Numbering::Pair, Layout::Paragraph),
            format!("1. e4 {{{comment}}}\n1... e5 2. Nf3 *\n")
        );
        assert_eq!(
            written(&game, Numbering::Pair, Layout::Pairs),
            format!("1. e4 {{{comment}}} 1... e5\n2. Nf3 *\n")
        );
    }

    #[test]
    fn a_token_means_what_its_dialect_says() {
        let draughts = &crate::family::draughts::RESULTS;
        let zero = draughts.parse("0-0").unwrap();
        assert_eq!(zero.outcome, Outcome::BothLose);
        assert_eq!(zero.token(), "0-0");
        assert_eq!(crate::family::chess::RESULTS.parse("0-0"), None);
        assert_eq!(
            crate::family::chess::RESULTS
                .parse("½-½")
                .map(GameResult::token),
            Some("1/2-1/2")
        );
        assert!(!crate::family::chess::RESULTS.knows(zero));
        assert_eq!(
            draughts
                .reread(crate::family::chess::RESULTS.parse("1-0").unwrap())
                .token(),
            "1-0"
        );
    }
}
