//! The intermediate game representation (IR).
//!
//! Every reader produces a [`Game`] and every writer consumes one. The IR holds
//! meaning, not spelling: squares are typed per game family, move numbers and
//! sides are explicit, comments, glyphs, NAGs and variations keep their place.
//! It is serde-serializable, and the `json`/`jsonl` formats are faithful dumps
//! of it.

use serde::{Deserialize, Serialize};

use crate::family::{Family, Move, Setup, Variant};

/// The side that makes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White (in English checkers the side that does not start).
    White,
    /// Black.
    Black,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// A tag pair `[Name "value"]`; the value is unescaped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// The tag name, as written.
    pub name: String,
    /// The tag value, unescaped.
    pub value: String,
}

impl Tag {
    /// A tag from its name and value.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// How a comment was written in a PGN-style container.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommentKind {
    /// `{...}`.
    #[default]
    Brace,
    /// `;...` up to the end of the line.
    Line,
    /// A `%...` escape line.
    Escape,
}

impl CommentKind {
    fn is_brace(&self) -> bool {
        *self == CommentKind::Brace
    }
}

/// A comment and the way it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comment {
    /// The text between the delimiters, exactly as written.
    pub text: String,
    /// The delimiters.
    #[serde(default, skip_serializing_if = "CommentKind::is_brace")]
    pub kind: CommentKind,
}

impl Comment {
    /// A `{...}` comment.
    pub fn brace(text: impl Into<String>) -> Comment {
        Comment {
            text: text.into(),
            kind: CommentKind::Brace,
        }
    }
}

/// One ply (half-move) with everything attached to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    /// The move number this ply belongs to.
    pub number: u32,
    /// The side that plays it.
    pub side: Side,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// A move glyph glued to the move (`!`, `?!`, `(!?)`, ...), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// Numeric annotation glyphs (`$n`) after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u32>,
    /// Comments written before the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<Comment>,
    /// Comments written after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<Comment>,
    /// Alternatives to this ply, each a line starting with a replacement for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Line>,
}

impl Ply {
    /// A bare ply.
    pub fn new(number: u32, side: Side, mv: Move) -> Ply {
        Ply {
            number,
            side,
            mv,
            glyph: None,
            nags: Vec::new(),
            before: Vec::new(),
            after: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// True for a move glyph the container grammar reads: `!` and `?` marks
/// (`!`, `?!`, `!!!`), bare or in parentheses (`(!?)`).
pub fn is_glyph(text: &str) -> bool {
    let marks = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    !marks.is_empty() && marks.bytes().all(|b| b == b'!' || b == b'?')
}

/// The traditional move suffixes, which are the NAGs `$1` to `$6`.
pub const SUFFIX_NAGS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

impl Ply {
    /// The ply's number as messages write it: `12.` for White, `12...` for
    /// Black.
    pub fn label(&self) -> String {
        match self.side {
            Side::White => format!("{}.", self.number),
            Side::Black => format!("{}...", self.number),
        }
    }

    /// The move suffix to show glued to the move: the glyph as written, or
    /// else a first NAG `$1`..`$6` as its traditional suffix; and the NAGs
    /// that remain.
    pub fn suffix(&self) -> (Option<&str>, &[u32]) {
        match (&self.glyph, self.nags.first()) {
            (Some(g), _) => (Some(g.as_str()), &self.nags),
            (None, Some(&n @ 1..=6)) => (Some(SUFFIX_NAGS[n as usize - 1]), &self.nags[1..]),
            (None, _) => (None, &self.nags),
        }
    }
}

/// How deeply variations may nest: a variation inside a variation inside
/// ... this many levels, and no more. Every reader refuses a deeper game
/// (that game alone, with its position), so that every recursive walk over
/// a [`Line`] (the readers, the replay, the writers, serde, `Drop`) stays
/// within a worker thread's stack; real games nest a few levels.
pub const MAX_VARIATION_DEPTH: usize = 500;

/// A sequence of plies: the main line of a game or a variation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The plies in order.
    pub plies: Vec<Ply>,
    /// Comments after the last ply that could not be attached to it (the line
    /// is empty, or its last ply has variations before them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<Comment>,
}

impl Line {
    /// True when the line holds no ply and no comment.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty() && self.trailing.is_empty()
    }

    /// How deeply variations nest in this line (0: none), counted no
    /// further than `limit + 1`, so that a line deeper than the stack allows
    /// is measured without overflowing it.
    pub fn depth(&self, limit: usize) -> usize {
        let mut deepest = 0;
        for var in self.plies.iter().flat_map(|p| &p.variations) {
            if limit == 0 {
                return 1;
            }
            deepest = deepest.max(1 + var.depth(limit - 1));
            if deepest > limit {
                break;
            }
        }
        deepest
    }
}

/// Who won, read from a result token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The left score wins (`1-0`, `2-0`).
    WhiteWins,
    /// The right score wins (`0-1`, `0-2`).
    BlackWins,
    /// A draw (`1/2-1/2`, `1-1`).
    Draw,
    /// Both sides lose, a double forfeit (`0-0`).
    BothLose,
    /// Unknown, unfinished or abandoned (`*`).
    Unknown,
}

/// A game result token: the outcome and the scale it was written in
/// (one point for a win as in chess, or two as in international draughts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct GameResult {
    /// Who won.
    pub outcome: Outcome,
    /// Points for a win: 1 (`1-0`) or 2 (`2-0`).
    pub scale: u8,
}

impl GameResult {
    /// The unknown result `*`.
    pub const UNKNOWN: GameResult = GameResult {
        outcome: Outcome::Unknown,
        scale: 1,
    };

    /// Reads a result token; `None` when the text is not one.
    pub fn parse(token: &str) -> Option<GameResult> {
        let (outcome, scale) = match token {
            "1-0" => (Outcome::WhiteWins, 1),
            "0-1" => (Outcome::BlackWins, 1),
            "1/2-1/2" | "½-½" | "1/2" => (Outcome::Draw, 1),
            "2-0" => (Outcome::WhiteWins, 2),
            "0-2" => (Outcome::BlackWins, 2),
            "1-1" => (Outcome::Draw, 2),
            "0-0" => (Outcome::BothLose, 1),
            "*" => (Outcome::Unknown, 1),
            _ => return None,
        };
        Some(GameResult { outcome, scale })
    }

    /// Reads a result as damaged exports write it, where [`GameResult::parse`]
    /// reads none: a placeholder (`-`, `--`, `?` or nothing) is the unknown
    /// result `*`, a token written with spaces (`1 - 0`, `1/2 - 1/2`) is that
    /// token. Returns the result and which repair it took; `None` when the
    /// text is neither.
    pub fn parse_damaged(text: &str) -> Option<(GameResult, ResultRepair)> {
        let text = text.trim_matches([' ', '\t']);
        if matches!(text, "" | "-" | "--" | "?") {
            return Some((GameResult::UNKNOWN, ResultRepair::Placeholder));
        }
        let packed: String = text.chars().filter(|&c| c != ' ' && c != '\t').collect();
        GameResult::parse(&packed).map(|r| (r, ResultRepair::Spaced))
    }

    /// Whether the notations of a family write this result: chess knows
    /// `1-0`, `0-1`, `1/2-1/2` and `*`; draughts every result.
    pub fn fits(self, family: Family) -> bool {
        match family {
            Family::Chess => self.scale == 1 && self.outcome != Outcome::BothLose,
            Family::Draughts => true,
        }
    }

    /// The canonical token.
    pub fn token(self) -> &'static str {
        match (self.outcome, self.scale) {
            (Outcome::WhiteWins, 2) => "2-0",
            (Outcome::BlackWins, 2) => "0-2",
            (Outcome::Draw, 2) => "1-1",
            (Outcome::WhiteWins, _) => "1-0",
            (Outcome::BlackWins, _) => "0-1",
            (Outcome::Draw, _) => "1/2-1/2",
            (Outcome::BothLose, _) => "0-0",
            (Outcome::Unknown, _) => "*",
        }
    }
}

/// How a damaged result was read (see [`GameResult::parse_damaged`]); each
/// kind has one fixed warning, so that a run shows it once with a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultRepair {
    /// A placeholder (`-`, `--`, `?`, nothing) read as `*`.
    Placeholder,
    /// A token written with spaces (`1 - 0`) read as that token.
    Spaced,
}

impl ResultRepair {
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

impl From<GameResult> for String {
    fn from(r: GameResult) -> String {
        r.token().to_string()
    }
}

impl TryFrom<String> for GameResult {
    type Error = String;
    fn try_from(s: String) -> Result<GameResult, String> {
        GameResult::parse(&s).ok_or_else(|| format!("`{s}` is not a game result"))
    }
}

/// One game record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The game family and board.
    pub variant: Variant,
    /// Comments written before the tag section.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preamble: Vec<Comment>,
    /// The tags, in input order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Tag>,
    /// The starting position, when the record gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// The main line.
    #[serde(default)]
    pub moves: Line,
    /// The game termination marker, when the record has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

impl Game {
    /// An empty game on a board.
    pub fn new(variant: Variant) -> Game {
        Game {
            variant,
            preamble: Vec::new(),
            tags: Vec::new(),
            setup: None,
            moves: Line::default(),
            result: None,
        }
    }

    /// The game's family.
    pub fn family(&self) -> Family {
        self.variant.family()
    }

    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The result a writer should end the movetext with: the termination
    /// marker, else the `Result` tag when it holds a result (damaged ones
    /// too: `1 - 0`, see [`GameResult::parse_damaged`]), else `*`; `*` too
    /// when that result is not one of the game's family (`2-0` in a chess
    /// game), which its notations could not read back.
    pub fn effective_result(&self) -> GameResult {
        self.result
            .or_else(|| self.tag_result())
            .filter(|r| r.fits(self.family()))
            .unwrap_or(GameResult::UNKNOWN)
    }

    /// The result the `Result` tag holds, read as damaged exports write it
    /// too.
    fn tag_result(&self) -> Option<GameResult> {
        let tag = self.tag("Result")?;
        GameResult::parse(tag).or_else(|| Some(GameResult::parse_damaged(tag)?.0))
    }

    /// The result the movetext cannot end with because it is not one of
    /// the game's family, as written (for the writer's warning).
    pub fn foreign_result(&self) -> Option<String> {
        let family = self.family();
        match (
            self.result,
            self.tag("Result").map(|t| (t, self.tag_result())),
        ) {
            (Some(r), _) if !r.fits(family) => Some(r.token().to_string()),
            (None, Some((t, Some(r)))) if !r.fits(family) => Some(t.to_string()),
            _ => None,
        }
    }
}
