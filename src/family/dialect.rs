//! What a container notation makes of the shared container: its dialect.
//!
//! Every container notation (pgn, draughts-num, draughts-diag, coerceo, ...)
//! reads and writes the same frame (tags, comments, NAGs, glyphs,
//! variations), and differs in three things, which its [`Dialect`] says:
//! how plies are numbered ([`Numbering`]), which result tokens end a game
//! ([`Results`]: the one definition of them, read by the record scanner, the
//! fast lexer, the container walker and the writer) and how movetext is laid
//! out in lines ([`Layout`]).
//!
//! pest grammars cannot read a Rust table, so each dialect's grammar keeps
//! its own `result_token` rule; a unit test per dialect
//! (`check_grammar`) requires grammar and table to agree exactly.

use crate::ir::{GameResult, Outcome, ResultRepair, Side};

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

/// One result token of a dialect: the text as written, and what it means
/// (the outcome and the canonical token a writer spells it with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultToken {
    /// The token as it is written (`½-½`).
    pub text: &'static str,
    /// What it is read as (a draw, written `1/2-1/2`).
    pub result: GameResult,
}

impl ResultToken {
    /// A token written as it is spelled canonically.
    pub const fn new(text: &'static str, outcome: Outcome) -> ResultToken {
        ResultToken {
            text,
            result: GameResult::new(outcome, text),
        }
    }

    /// A token read as another, canonical one (`1/2` is `1/2-1/2`).
    pub const fn alias(
        text: &'static str,
        outcome: Outcome,
        canonical: &'static str,
    ) -> ResultToken {
        ResultToken {
            text,
            result: GameResult::new(outcome, canonical),
        }
    }
}

/// A dialect's result tokens: the table from token text to meaning, in the
/// order of the grammar's `result_token` rule (the first token that starts
/// at a place is the one read there), and the set of the bytes they start
/// with, which the scans test first.
#[derive(Debug)]
pub struct Results {
    tokens: &'static [ResultToken],
    firsts: ByteSet,
}

/// The four result tokens of PGN export format (`1-0`, `0-1`, `1/2-1/2`,
/// `*`), in that order: the table of the dialects whose grammar reads
/// just those (tafl, tenjiku). A dialect with more spells its own (chess's
/// `½-½`, Coerceo's `W+R`).
pub static PGN_RESULTS: Results = Results::new(&[
    ResultToken::new("1-0", Outcome::WhiteWins),
    ResultToken::new("0-1", Outcome::BlackWins),
    ResultToken::new("1/2-1/2", Outcome::Draw),
    // The score with a colon, as Russian and other records write it.
    ResultToken::alias("1:0", Outcome::WhiteWins, "1-0"),
    ResultToken::alias("0:1", Outcome::BlackWins, "0-1"),
    ResultToken::alias("1/2:1/2", Outcome::Draw, "1/2-1/2"),
    ResultToken::new("*", Outcome::Unknown),
]);

/// A set of bytes, tested in a few instructions (the first bytes of a
/// dialect's result tokens). Copy it into a local before a hot loop.
#[derive(Debug, Clone, Copy)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// Whether the set holds the byte.
    #[inline]
    pub fn contains(self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }
}

impl Results {
    /// The table of these tokens.
    pub const fn new(tokens: &'static [ResultToken]) -> Results {
        let mut firsts = [0u64; 4];
        let mut i = 0;
        while i < tokens.len() {
            let b = tokens[i].text.as_bytes()[0];
            firsts[(b >> 6) as usize] |= 1 << (b & 63);
            i += 1;
        }
        Results {
            tokens,
            firsts: ByteSet(firsts),
        }
    }

    /// The tokens, in the grammar's order.
    pub fn tokens(&self) -> &'static [ResultToken] {
        self.tokens
    }

    /// The bytes a token starts with.
    #[inline]
    pub fn firsts(&self) -> ByteSet {
        self.firsts
    }

    /// The first token that `text` starts with (it may run on into a longer
    /// token: the caller checks what follows).
    #[inline]
    pub fn prefix(&self, text: &[u8]) -> Option<&'static str> {
        // The first byte first: most texts asked about are moves, which no
        // comparison of whole bytes should cost.
        self.tokens
            .iter()
            .find(|t| {
                let t = t.text.as_bytes();
                t.first() == text.first() && text.starts_with(t)
            })
            .map(|t| t.text)
    }

    /// Whether `text` is exactly one of the tokens.
    #[inline]
    pub fn is_token(&self, text: &[u8]) -> bool {
        // Length and first byte first: most texts asked about are move
        // numbers, which no comparison of whole bytes should cost.
        self.tokens.iter().any(|t| {
            let t = t.text.as_bytes();
            t.len() == text.len() && t.first() == text.first() && t == text
        })
    }

    /// Reads a result token; `None` when the text is not one.
    pub fn parse(&self, text: &str) -> Option<GameResult> {
        self.tokens
            .iter()
            .find(|t| t.text == text)
            .map(|t| t.result)
    }

    /// Reads a result as damaged exports write it, where [`Results::parse`]
    /// reads none: a placeholder (`-`, `--`, `?` or nothing) is the unknown
    /// result `*`, a token written with spaces (`1 - 0`, `1/2 - 1/2`) is that
    /// token. Returns the result and which repair it took; `None` when the
    /// text is neither.
    pub fn parse_damaged(&self, text: &str) -> Option<(GameResult, ResultRepair)> {
        let text = text.trim_matches([' ', '\t']);
        if matches!(text, "" | "-" | "--" | "?") {
            return Some((GameResult::UNKNOWN, ResultRepair::Placeholder));
        }
        let packed: String = text.chars().filter(|&c| c != ' ' && c != '\t').collect();
        self.parse(&packed).map(|r| (r, ResultRepair::Spaced))
    }

    /// Reads a result token or a damaged one (see [`Results::parse_damaged`]).
    pub fn parse_any(&self, text: &str) -> Option<GameResult> {
        self.parse(text)
            .or_else(|| Some(self.parse_damaged(text)?.0))
    }

    /// Whether this table writes the result: one of its tokens means it.
    pub fn knows(&self, result: GameResult) -> bool {
        self.tokens.iter().any(|t| t.result == result)
    }

    /// The result a token of another table means here, when this table has
    /// that token (`0-0` is a double forfeit in draughts, a draw in
    /// Coerceo); otherwise the result unchanged.
    pub fn reread(&self, result: GameResult) -> GameResult {
        self.parse(result.token()).unwrap_or(result)
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

/// Every dialect's result table, to test a dialect's grammar against the
/// tokens of the others.
#[cfg(test)]
pub(crate) fn all_results() -> Vec<&'static Results> {
    use crate::family::Family;
    Family::ALL.iter().map(|f| f.results()).collect()
}

/// Requires a dialect's grammar and its result table to agree exactly:
/// parser `P`'s `result` rule must read the whole text of what the table
/// holds, and nothing else. Every token of the table, and its forms spaced around the dash,
/// must be read, and mean through the table (as the walker reads them)
/// what the table says; the tokens of every other table that this one
/// lacks, and near misses, must not be read.
#[cfg(test)]
pub(crate) fn check_grammar<P: pest::Parser<R>, R: pest::RuleType>(results: &Results, result: R) {
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
                assert_eq!((r, repair), (t.result, ResultRepair::Spaced), "{spaced}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::ReadOptions;
    use crate::container::{self, Style};
    use crate::family::chess::pgn;

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
