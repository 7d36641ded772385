//! Game results and their tokens: what a result means ([`Outcome`]), the
//! result as read ([`GameResult`]: its meaning and canonical token), and a
//! dialect's table from token text to meaning ([`Results`]). A floor below
//! the IR and the families' types: each room's leaf module spells its
//! table with these, and the IR reads tokens through the families' tables
//! ([`crate::ir::GameResult::parse`]).

use serde::Serialize;

/// Who won, read from a result token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White (the left score) wins (`1-0`, `2-0`, Coerceo's `W+R`).
    WhiteWins,
    /// Black (the right score) wins (`0-1`, `0-2`, Coerceo's `B+R`).
    BlackWins,
    /// A draw (`1/2-1/2`, `1-1`, Coerceo's `0-0`).
    Draw,
    /// Both sides lose, a double forfeit (draughts `0-0`).
    BothLose,
    /// The game was decided, by a resignation or on time, and the token does
    /// not say who won (Coerceo's `R`).
    Decided,
    /// Unknown, unfinished or abandoned (`*`).
    Unknown,
}

impl Outcome {
    /// Whether two results can be said of one game (a Result tag and the
    /// movetext's): the same outcome, either unknown (`*`), or a decided
    /// game (Coerceo's `R`) and a win that names its winner.
    pub fn agrees(self, other: Outcome) -> bool {
        use Outcome::*;
        self == other
            || matches!((self, other), (Unknown, _) | (_, Unknown))
            || matches!(
                (self, other),
                (Decided, WhiteWins | BlackWins) | (WhiteWins | BlackWins, Decided)
            )
    }
}

/// A game result: what it means, and the canonical token of the dialect it
/// was read in (`1/2` and `½-½` are read as `1/2-1/2`; `2-0` and `1-0` are
/// both White's win, in two scales). A dialect's table
/// ([`Results`]) is the one definition of its
/// tokens; a token may mean different things in two dialects (`0-0`: a
/// double forfeit in draughts, a draw in Coerceo). Serialized as its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Who won.
    pub outcome: Outcome,
    /// The canonical token.
    token: &'static str,
}

impl GameResult {
    /// The unknown result `*`.
    pub const UNKNOWN: GameResult = GameResult::new(Outcome::Unknown, "*");

    /// A result with its canonical token.
    pub const fn new(outcome: Outcome, token: &'static str) -> GameResult {
        GameResult { outcome, token }
    }

    /// The canonical token.
    pub fn token(self) -> &'static str {
        self.token
    }
}

/// How a damaged result was read (see [`Results::parse_damaged`]); each
/// kind has one fixed warning, so that a run shows it once with a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultRepair {
    /// A placeholder (`-`, `--`, `?`, nothing) read as `*`.
    Placeholder,
    /// A token written with spaces (`1 - 0`) read as that token.
    Spaced,
}

impl ResultRepair {
    /// The kind of its warning.
    pub fn kind(self) -> crate::error::Kind {
        match self {
            ResultRepair::Placeholder => crate::error::Kind::PlaceholderResult,
            ResultRepair::Spaced => crate::error::Kind::SpacedResult,
        }
    }

    /// The warning that says what was read.
    pub fn message(self) -> &'static str {
        match self {
            ResultRepair::Placeholder => {
                "a placeholder result (`-`, `--`, `?` or empty) was read as the unknown result `*`"
            }
            ResultRepair::Spaced => {
                "a result written with spaces (`1 - 0`, `1/2 - 1/2`) was read as that result"
            }
        }
    }
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.token)
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
