//! The intermediate game representation (IR).
//!
//! Every reader produces a [`Game`] and every writer consumes one. The IR holds
//! meaning, not spelling: squares are typed per game family, move numbers and
//! sides are explicit, comments, glyphs, NAGs and variations keep their place.
//! It is serde-serializable, and the `json`/`jsonl` formats are faithful dumps
//! of it.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

pub mod result;
pub mod side;

pub use result::{GameResult, Outcome, ResultRepair, ResultToken, Results};
pub use side::{push_number, Side};
mod text;
pub(crate) use text::is_ascii;
pub(crate) use text::push_short;
pub use text::{is_plain, Text};

/// True for a character XML 1.0 cannot hold, even as a character
/// reference: the C0 controls but tab, line feed and carriage return, and
/// U+FFFE, U+FFFF. The xml writer writes one as an element; every picture
/// and page writer (`family::draw::escape`) as a space.
pub fn unholdable(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
}

use crate::family::any::{Family, Move, Setup, Variant};

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

/// The first tag of this name, ASCII case ignored: the one a reader lifts
/// into a typed field (a later tag of the same name is kept as written and
/// read by no one), and the one a writer makes say what that field says
/// ([`back_tag`]).
pub fn find_tag(tags: &[Tag], name: &str) -> Option<usize> {
    tags.iter().position(|t| t.name.eq_ignore_ascii_case(name))
}

/// Whether a tag's value reads as a typed field's ([`Backing::Value`]).
pub type Agrees<'a> = &'a dyn Fn(&str) -> bool;

/// A typed field's value, spelled for its tag ([`Backing::Value`]).
pub type Spelled<'a> = &'a dyn Fn() -> String;

/// What a typed field says the tag that carries it ([`find_tag`]) must
/// read as.
pub enum Backing<'a> {
    /// A value: a tag that `agrees` is kept as written, one that does not
    /// gets `value`, and a missing one is added at the end.
    Value {
        /// Whether a tag's value reads as the field.
        agrees: Agrees<'a>,
        /// The field's value, spelled for the tag.
        value: Spelled<'a>,
    },
    /// No value: a tag that reads as none (`[FEN "?"]` in draughts) is
    /// kept as written, and each one that would be read as a value in the
    /// field's place is dropped, a repeated one too (it would rise to be
    /// the first, and be read back as the field).
    Nothing {
        /// Whether a tag's value reads as no value.
        reads_as_nothing: &'a dyn Fn(&str) -> bool,
    },
}

/// What [`back_tag`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backed {
    /// No tag of the name, and none was needed.
    Absent,
    /// The first tag agreed with the field and was kept as written.
    Kept,
    /// The first tag got the field's value.
    Set,
    /// The tag was added at the end.
    Added,
    /// Every tag of the name was dropped.
    Dropped,
}

/// Makes the tag `name` say what a typed field says ([`Backing`]), so that
/// a reader lifting the first such tag reads the field back, whatever
/// repeats follow it. The one way every writer renders the tags that carry
/// meaning (a setup's FEN, a board, a variant).
pub fn back_tag(
    tags: &mut std::borrow::Cow<'_, [Tag]>,
    name: &str,
    backing: Backing<'_>,
) -> Backed {
    match backing {
        Backing::Value { agrees, value } => match find_tag(tags, name) {
            Some(i) if agrees(&tags[i].value) => Backed::Kept,
            Some(i) => {
                tags.to_mut()[i].value = value();
                Backed::Set
            }
            None => {
                tags.to_mut().push(Tag::new(name, value()));
                Backed::Added
            }
        },
        Backing::Nothing { reads_as_nothing } => {
            let mut dropped = false;
            while let Some(i) = find_tag(tags, name) {
                if reads_as_nothing(&tags[i].value) {
                    return Backed::Kept;
                }
                tags.to_mut().remove(i);
                dropped = true;
            }
            if dropped {
                Backed::Dropped
            } else {
                Backed::Absent
            }
        }
    }
}

/// Makes a PGN-style `FEN` tag, with its `SetUp "1"`, say what a setup
/// says ([`back_tag`]): `setup` is the position as a tag agrees with it and
/// as it is written, `None` for a game without one (then every FEN tag is
/// read as a position, and each is dropped, with its `SetUp`). A missing
/// FEN tag is added after `SetUp "1"` (added too when missing). Chess and
/// tenjiku write their setups so.
pub fn back_fen(tags: &mut std::borrow::Cow<'_, [Tag]>, setup: Option<(Agrees<'_>, Spelled<'_>)>) {
    let backing = match setup {
        Some((agrees, value)) => {
            if find_tag(tags, "FEN").is_none() && find_tag(tags, "SetUp").is_none() {
                tags.to_mut().push(Tag::new("SetUp", "1"));
            }
            Backing::Value { agrees, value }
        }
        None => Backing::Nothing {
            reads_as_nothing: &|_| false,
        },
    };
    if back_tag(tags, "FEN", backing) == Backed::Dropped {
        if let Some(j) = find_tag(tags, "SetUp") {
            tags.to_mut().remove(j);
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
    /// The text between the delimiters, exactly as written (a slice of
    /// the record it was read from, shared: [`Text`]).
    pub text: Text,
    /// The delimiters.
    #[serde(default, skip_serializing_if = "CommentKind::is_brace")]
    pub kind: CommentKind,
}

impl Comment {
    /// A `{...}` comment.
    pub fn brace(text: impl Into<Text>) -> Comment {
        Comment {
            text: text.into(),
            kind: CommentKind::Brace,
        }
    }
}

/// The comments after a move: one is held in place, without an
/// allocation of its own (a move with comments usually has one: a clock,
/// an evaluation, an engine's report), more spill to the heap. Derefs to
/// a slice, and serializes as a sequence, as a `Vec` does.
pub type Comments = SmallVec<[Comment; 1]>;

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
    /// Comments written after the move (held in the ply when there is
    /// one, as there usually is: [`Comments`]).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub after: Comments,
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
            after: Comments::new(),
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
    /// The ply's number as messages write it, in its family's numbering:
    /// by move pair `12.` for the side that moves first in the game
    /// ([`crate::family::Variant::first_mover`]) and `12...` for the other,
    /// `12#` by ply.
    pub fn label(&self, first: Side) -> String {
        let numbering = self.mv.family().dialect().numbering;
        numbering.label(self.number, self.side, first)
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

    /// How many plies the line holds, with those of its variations.
    pub fn ply_count(&self) -> usize {
        self.plies
            .iter()
            .map(|p| 1 + p.variations.iter().map(Line::ply_count).sum::<usize>())
            .sum()
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

impl GameResult {
    /// Reads a result token where the family is not known, in the table
    /// of every family that writes it: the result they agree on (`1-0` is
    /// White's win in each), or else the token as written with an unknown
    /// outcome (`0-0` is a double forfeit in draughts and a draw in
    /// Coerceo), which the game's family gives its meaning
    /// ([`GameResult::in_family`]); never one family's reading picked by
    /// the order of the registration. `None` when no family writes the
    /// token.
    pub fn parse(token: &str) -> Option<GameResult> {
        agreed(Family::ALL.iter().filter_map(|f| f.results().parse(token)))
    }

    /// Reads a result as damaged exports write it, where
    /// [`GameResult::parse`] reads none, by the tables of every family as
    /// [`GameResult::parse`] does (see [`Results::parse_damaged`]).
    pub fn parse_damaged(text: &str) -> Option<(GameResult, ResultRepair)> {
        let repair = Family::ALL
            .iter()
            .find_map(|f| f.results().parse_damaged(text))?
            .1;
        let read = Family::ALL
            .iter()
            .filter_map(|f| f.results().parse_damaged(text).map(|(r, _)| r));
        Some((agreed(read)?, repair))
    }

    /// Whether the notations of a family write this result: chess knows
    /// `1-0`, `0-1`, `1/2-1/2` and `*`; draughts every result of its
    /// table.
    pub fn fits(self, family: Family) -> bool {
        family.results().knows(self)
    }

    /// This result as a family reads its token (itself when the family has
    /// no such token).
    pub fn in_family(self, family: Family) -> GameResult {
        family.results().reread(self)
    }
}

/// The result several tables read one token as: the one they agree on, or
/// else the token with an unknown outcome (see [`GameResult::parse`]).
fn agreed(mut read: impl Iterator<Item = GameResult>) -> Option<GameResult> {
    let first = read.next()?;
    Some(if read.all(|r| r == first) {
        first
    } else {
        GameResult::new(Outcome::Unknown, first.token())
    })
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        GameResult::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("{} is not a game result", crate::error::quote(&s)))
        })
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

    /// The name of the game as a page or picture titles it: `White -
    /// Black, Event, Date`, each part known (not a placeholder, [`placeholder`]);
    /// `None` when none is.
    pub fn title(&self) -> Option<String> {
        let known = |name| self.tag(name).map(str::trim).filter(|v| !placeholder(v));
        let players = match (known("White"), known("Black")) {
            (Some(w), Some(b)) => Some(format!("{w} - {b}")),
            (w, b) => w.or(b).map(str::to_string),
        };
        let parts: Vec<String> = [
            players,
            known("Event").map(str::to_string),
            known("Date").map(str::to_string),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The result a writer should end the movetext with: the termination
    /// marker, else the `Result` tag when it holds a result (damaged ones
    /// too: `1 - 0`, see [`Results::parse_damaged`]), else `*`; `*` too
    /// when that result is not one of the game's family (`2-0` in a chess
    /// game), which its notations could not read back.
    pub fn effective_result(&self) -> GameResult {
        self.result_in(self.family().results())
    }

    /// [`Game::effective_result`], for a dialect's table of results.
    pub fn result_in(&self, results: &Results) -> GameResult {
        self.result
            .map(|r| results.reread(r))
            .or_else(|| self.tag_result(results))
            .filter(|&r| results.knows(r))
            .unwrap_or(GameResult::UNKNOWN)
    }

    /// The result the `Result` tag holds, read as damaged exports write it
    /// too.
    fn tag_result(&self, results: &Results) -> Option<GameResult> {
        let tag = self.tag("Result")?;
        results
            .parse_any(tag)
            .or_else(|| GameResult::parse(tag).or_else(|| Some(GameResult::parse_damaged(tag)?.0)))
    }

    /// The result the movetext cannot end with because it is not one of
    /// the game's family, as written (for the writer's warning).
    pub fn foreign_result(&self) -> Option<String> {
        let results = self.family().results();
        match (
            self.result.map(|r| results.reread(r)),
            self.tag("Result").map(|t| (t, self.tag_result(results))),
        ) {
            (Some(r), _) if !results.knows(r) => Some(r.token().to_string()),
            (None, Some((t, Some(r)))) if !results.knows(r) => Some(t.to_string()),
            _ => None,
        }
    }
}

/// Whether a tag value only holds a place (`?`, `????.??.??`, empty): it
/// says nothing of the game.
pub fn placeholder(value: &str) -> bool {
    value.chars().all(|c| matches!(c, '?' | '.' | ' ' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of every family's table, read where the family is not
    /// known, means in each family what that family's table says, and is
    /// decided by no family's place in the registration: the tables that
    /// have it agree, or the outcome is unknown.
    #[test]
    fn a_token_read_without_its_family_means_what_each_family_says() {
        for &f in Family::ALL {
            for t in f.results().tokens() {
                let any = GameResult::parse(t.text).expect(t.text);
                assert_eq!(any.in_family(f), t.result, "{} in {}", t.text, f.name());
                let readings: Vec<GameResult> = Family::ALL
                    .iter()
                    .filter_map(|g| g.results().parse(t.text))
                    .collect();
                if readings.iter().all(|&r| r == readings[0]) {
                    assert_eq!(any, readings[0], "{}", t.text);
                } else {
                    assert_eq!(any.outcome, Outcome::Unknown, "{}", t.text);
                }
            }
        }
        let zero = GameResult::parse("0-0").unwrap();
        assert_eq!((zero.outcome, zero.token()), (Outcome::Unknown, "0-0"));
        assert_eq!(zero.in_family(Family::Draughts).outcome, Outcome::BothLose);
        assert_eq!(zero.in_family(Family::Coerceo).outcome, Outcome::Draw);
        let (spaced, repair) = GameResult::parse_damaged("0 - 0").unwrap();
        assert_eq!((spaced, repair), (zero, ResultRepair::Spaced));
        assert_eq!(GameResult::parse("4-6"), None);
    }
}
