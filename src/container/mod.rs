//! The PGN-style container shared by every container notation: tags, move
//! numbers, comments, escape lines, NAGs, glyphs, variations and results.
//!
//! `grammars/common.pest` is stacked into each notation's parser, so every
//! notation has its own `Rule` enum; `container_rules!` maps the shared rule
//! names to a [`Kind`], and `read` walks the pairs of any of them into the
//! IR, asking the notation ([`Notation`]) only for the board and the moves.
//! [`write()`] is the matching writer. What differs between container
//! notations (numbering, result tokens, layouts) is the notation's
//! [`Dialect`]: nothing here knows a family's tokens.

pub mod fast;
pub mod repair;
pub mod scan;

use pest::iterators::{Pair, Pairs};
use pest::RuleType;
use std::borrow::Cow;

use crate::codec::{line_col, too_deep, Parsed, Piece, ReadOptions};
use crate::error::Problem;
use crate::family::dialect::{Dialect, Layout, Numbering, Results};
use crate::family::{Move, Setup, Variant};
use crate::ir::{
    find_tag, push_number, Comment, CommentKind, Game, GameResult, Line, Ply, Side, Tag, Text,
    MAX_VARIATION_DEPTH,
};
use fast::Lexing;
use std::sync::Arc;

/// What a rule of `common.pest` is, whatever notation's `Rule` enum it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The whole record.
    Record,
    /// Comments before the tags.
    Preamble,
    /// `[Name "value"]`.
    Tag,
    /// A tag's name.
    TagName,
    /// A tag's quoted value.
    TagValue,
    /// The text inside the quotes.
    TagText,
    /// A tag value written without quotes.
    TagBare,
    /// The movetext.
    Body,
    /// A move (the notation's move rule).
    Move,
    /// `12.` or `12...`.
    MoveNumber,
    /// A lone `...`.
    Ellipsis,
    /// `!`, `?!`, `(!?)`, ...
    Glyph,
    /// `$n`.
    Nag,
    /// `{...}`.
    BraceComment,
    /// `;...`.
    LineComment,
    /// `%...`.
    EscapeLine,
    /// The text of a comment.
    CommentText,
    /// `( ... )`.
    Variation,
    /// Parenthesized text that is not movetext.
    ParenComment,
    /// A `}` outside any comment.
    StrayBrace,
    /// A result token.
    Result,
    /// A damaged tag, read with a repair.
    Repair(Repair),
    /// A notation's own rule.
    Other,
}

/// How a damaged tag section was read (`grammars/common.pest`); each repair
/// is a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// A doubled `[[` before a tag name: the extra `[` is skipped.
    Reopen,
    /// More words before a quoted value (`[White Elo "2400"]`): they are
    /// part of the name, which is written without its spaces.
    NameWords,
    /// A value whose closing quote is missing: it ends at the `]` or the
    /// end of the line.
    OpenQuote,
    /// A tag line that ends before its `]`.
    Cut,
    /// Text after a tag's `]` on its line that starts no movetext: skipped.
    Stray,
    /// A line holding a lone `[`: skipped.
    Lone,
    /// A tag line that lost its `[` (`Event "x"]`): read as the tag.
    Unopened,
    /// A line end inside a tag, after its name or value (`[Event` then
    /// `"x"]`): skipped.
    Split,
}

/// Maps a notation's `Rule` enum onto the container's [`Kind`]s.
pub trait ContainerRule: RuleType {
    /// The container role of this rule.
    fn kind(self) -> Kind;
    /// A name for the rule in an error message ("a move", "a tag", ...).
    fn describe(self) -> &'static str;
}

/// Implements [`ContainerRule`] for the `Rule` enum of a parser that stacks
/// `grammars/common.pest`, given the notation's move rule and a function
/// naming its other rules.
#[macro_export]
#[doc(hidden)]
macro_rules! container_rules {
    ($rule:ident, $move_rule:ident, $describe_own:expr) => {
        impl $crate::container::ContainerRule for $rule {
            fn kind(self) -> $crate::container::Kind {
                use $crate::container::{Kind, Repair};
                match self {
                    $rule::record => Kind::Record,
                    $rule::preamble => Kind::Preamble,
                    $rule::tag => Kind::Tag,
                    $rule::tag_name => Kind::TagName,
                    $rule::tag_value => Kind::TagValue,
                    $rule::tag_text | $rule::tag_raw => Kind::TagText,
                    $rule::tag_bare => Kind::TagBare,
                    $rule::body => Kind::Body,
                    $rule::$move_rule => Kind::Move,
                    $rule::move_number => Kind::MoveNumber,
                    $rule::ellipsis => Kind::Ellipsis,
                    $rule::glyph => Kind::Glyph,
                    $rule::nag => Kind::Nag,
                    $rule::brace_comment | $rule::preamble_brace => Kind::BraceComment,
                    $rule::line_comment => Kind::LineComment,
                    $rule::escape_line => Kind::EscapeLine,
                    $rule::brace_text
                    | $rule::line_text
                    | $rule::paren_text
                    | $rule::preamble_text => Kind::CommentText,
                    $rule::variation => Kind::Variation,
                    $rule::paren_comment => Kind::ParenComment,
                    $rule::stray_brace => Kind::StrayBrace,
                    $rule::result => Kind::Result,
                    $rule::tag_reopen => Kind::Repair(Repair::Reopen),
                    $rule::tag_name_more => Kind::Repair(Repair::NameWords),
                    $rule::tag_open_text => Kind::Repair(Repair::OpenQuote),
                    $rule::tag_cut => Kind::Repair(Repair::Cut),
                    $rule::tag_stray => Kind::Repair(Repair::Stray),
                    $rule::tag_lone => Kind::Repair(Repair::Lone),
                    $rule::tag_unopened => Kind::Repair(Repair::Unopened),
                    $rule::tag_split => Kind::Repair(Repair::Split),
                    _ => Kind::Other,
                }
            }
            fn describe(self) -> &'static str {
                use $crate::container::Kind;
                match $crate::container::ContainerRule::kind(self) {
                    Kind::Tag | Kind::Repair(_) => "a tag",
                    Kind::TagName => "a tag name",
                    Kind::TagValue | Kind::TagText | Kind::TagBare => "a tag value",
                    Kind::Move => "a move",
                    Kind::MoveNumber => "a move number",
                    Kind::Glyph => "a move glyph",
                    Kind::Nag => "a NAG",
                    Kind::BraceComment | Kind::LineComment | Kind::EscapeLine => "a comment",
                    Kind::Variation => "a variation",
                    Kind::Result => "a result",
                    Kind::Record | Kind::Body => "a game",
                    _ => ($describe_own)(self),
                }
            }
        }
    };
}

/// What a notation tells the container walker.
pub trait Notation {
    /// The parser's rule enum.
    type Rule: ContainerRule;

    /// The notation's dialect of the container: its numbering and result
    /// tokens (those of its grammar's `result_token`).
    const DIALECT: &'static Dialect;

    /// Called once the tags are read: decides the board and the setup, and
    /// keeps what [`Notation::read_move`] needs. `at` locates a tag by name.
    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem>;

    /// Whether [`Notation::read_move`] needs the move's pest pair (its
    /// inner pairs); otherwise it gets the text alone.
    const MOVE_PAIR: bool = false;

    /// Reads one move.
    fn read_move(&mut self, mv: MoveText<'_, Self::Rule>) -> Result<Move, Problem>;

    /// Called after the movetext is read, to settle what the moves told: the
    /// board, when the squares showed it, or the moves themselves, replayed
    /// by the rules. Does nothing by default.
    fn finish(&mut self, _game: &mut Game, _warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        Ok(())
    }
}

/// A notation whose records may be read a run at a time
/// ([`stream_record`]), so that a long record is never held whole: a run
/// is a stretch of plies of one line (the main line or a variation), each
/// with its comments and the variations read whole with it.
pub trait Runs: Notation {
    /// The position the main line starts from, as [`Runs::run`] takes it
    /// (`None` where the moves are not replayed).
    fn start_position(&self) -> Option<Setup>;

    /// Makes a run of plies, as read, that continues a line from the
    /// position `from`, a game of its own, as [`Notation::finish`] settles
    /// a whole one: the game's board, the moves resolved (the run's are
    /// the first moves read and not yet settled), and `from` as its setup
    /// (from which the run's moves are spelled). Returns it, and the
    /// position after the run's plies. `depth` is the line's (0: the main
    /// line). Says nothing: what `finish` says of a game it says once, at
    /// the end.
    fn run(
        &mut self,
        plies: Vec<Ply>,
        from: &Option<Setup>,
        depth: usize,
    ) -> Result<(Game, Option<Setup>), Problem>;
}

/// The board and setup of a game, decided from its tags.
pub struct Start {
    /// The board.
    pub variant: Variant,
    /// The starting position, if the tags give one.
    pub setup: Option<Setup>,
    /// The side to move first, if the setup says.
    pub to_move: Option<Side>,
    /// The number of the first move, if the setup says.
    pub number: Option<u32>,
    /// Warnings about the decision (a guessed board, say).
    pub warnings: Vec<Problem>,
}

/// Turns a pest error into a [`Problem`] a person can act on.
pub fn syntax_problem<R: ContainerRule>(text: &str, err: pest::error::Error<R>) -> Problem {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.line_col {
        pest::error::LineColLocation::Pos(p) | pest::error::LineColLocation::Span(p, _) => p,
    };
    let offset = match err.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    };
    let found: String = text[offset.min(text.len())..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(24)
        .collect();
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(|r| r.describe()).collect();
            names.dedup();
            let mut uniq: Vec<&str> = Vec::new();
            for n in names {
                if !uniq.contains(&n) {
                    uniq.push(n);
                }
            }
            match uniq.len() {
                0 => String::from("unexpected text"),
                1 => format!("expected {}", uniq[0]),
                _ => {
                    let last = uniq.pop().unwrap_or_default();
                    format!("expected {} or {}", uniq.join(", "), last)
                }
            }
        }
        // pest's guard against running out of stack: only variations nest
        // without bound in the grammar. pest stops where its stack ran out,
        // far past the limit: the error names the `(` that opens the first
        // level past it, as the walker does.
        ErrorVariant::CustomError { message } if message == "stack limit reached" => {
            let open = open_at_depth(text, MAX_VARIATION_DEPTH + 1);
            return too_deep(open.map_or(pos, |at| line_col(text, at)));
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = if found.is_empty() {
        if offset >= text.trim_end().len() {
            "the end of the game".to_string()
        } else {
            "a space".to_string()
        }
    } else {
        crate::error::quote(&found)
    };
    Problem::at(pos, format!("{expected}, found {found}"))
}

/// Undoes tag value escapes: `\"` and `\\`; other backslashes stay.
pub fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n @ ('"' | '\\')) = chars.peek() {
                out.push(n);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// One movetext token, as pest's pairs or the fast lexer give it. Offsets
/// are bytes from the start of the record.
pub enum Token<'i, R: RuleType> {
    /// A move: its text, offset, and its pair when pest read it (boxed:
    /// the lexer's tokens stay small).
    Move(&'i str, usize, Option<Box<Pair<'i, R>>>),
    /// `12.` or `12...`.
    MoveNumber(&'i str, usize),
    /// A lone `...`.
    Ellipsis,
    /// `!`, `?!`, `(!?)`, ...
    Glyph(&'i str, usize),
    /// `$n`.
    Nag(&'i str, usize),
    /// A comment: how it was written, its text and its offset.
    Comment(CommentKind, &'i str, usize),
    /// Parenthesized text that is not movetext, and its offset.
    ParenComment(&'i str, usize),
    /// `(`, opening a variation.
    Open(usize),
    /// `)`, closing it.
    Close,
    /// A result token and its offset.
    Result(&'i str, usize),
    /// A `}` outside any comment.
    StrayBrace(usize),
}

/// A move as the walker hands it to the notation.
pub struct MoveText<'i, R: RuleType> {
    record: &'i str,
    at: usize,
    text: &'i str,
    pair: Option<Box<Pair<'i, R>>>,
}

impl<'i, R: RuleType> MoveText<'i, R> {
    /// The move as written.
    pub fn text(&self) -> &'i str {
        self.text
    }

    /// Byte offset of the move in its record.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Line and column of a byte offset inside the move.
    pub fn pos(&self, offset: usize) -> (usize, usize) {
        line_col(self.record, self.at + offset.min(self.text.len()))
    }

    /// Where the move is, to locate an error once there is one (computing a
    /// line and column scans the record from its start: do it only then).
    pub fn spot(&self) -> Spot<'i> {
        Spot {
            record: self.record,
            at: self.at,
        }
    }

    /// The move's pair, when pest read it.
    pub fn into_pair(self) -> Option<Pair<'i, R>> {
        self.pair.map(|p| *p)
    }
}

/// The place of a move in its record (see [`MoveText::spot`]).
#[derive(Debug, Clone, Copy)]
pub struct Spot<'i> {
    record: &'i str,
    at: usize,
}

impl Spot<'_> {
    /// Line and column of the move's first character.
    pub fn pos(self) -> (usize, usize) {
        line_col(self.record, self.at)
    }
}

/// Turns pest's nested movetext pairs into a flat stream of tokens.
struct PestTokens<'i, R: RuleType> {
    stack: Vec<Pairs<'i, R>>,
    /// Hand moves their pair (see [`Notation::MOVE_PAIR`]).
    move_pairs: bool,
}

impl<'i, R: ContainerRule> Iterator for PestTokens<'i, R> {
    type Item = Token<'i, R>;

    fn next(&mut self) -> Option<Token<'i, R>> {
        loop {
            let top = self.stack.last_mut()?;
            let Some(pair) = top.next() else {
                self.stack.pop();
                return if self.stack.is_empty() {
                    None
                } else {
                    Some(Token::Close)
                };
            };
            let at = pair.as_span().start();
            let text = pair.as_str();
            let inner = |pair: Pair<'i, R>| pair.into_inner().next().map_or("", |t| t.as_str());
            return Some(match pair.as_rule().kind() {
                Kind::Move => Token::Move(text, at, self.move_pairs.then(|| Box::new(pair))),
                Kind::MoveNumber => Token::MoveNumber(text, at),
                Kind::Ellipsis => Token::Ellipsis,
                Kind::Glyph => Token::Glyph(text, at),
                Kind::Nag => Token::Nag(text, at),
                Kind::BraceComment => Token::Comment(CommentKind::Brace, inner(pair), at),
                Kind::LineComment => Token::Comment(CommentKind::Line, inner(pair), at),
                Kind::EscapeLine => Token::Comment(CommentKind::Escape, inner(pair), at),
                Kind::ParenComment => Token::ParenComment(inner(pair), at),
                Kind::Variation => {
                    self.stack.push(pair.into_inner());
                    Token::Open(at)
                }
                Kind::Result => Token::Result(text, at),
                Kind::StrayBrace => Token::StrayBrace(at),
                _ => continue,
            });
        }
    }
}

/// A record read by the fast lexer: its tags (name, value without escapes,
/// offset) and its movetext tokens.
pub struct Lexed<'i, R: RuleType> {
    /// Tags in order.
    pub tags: Vec<(&'i str, &'i str, usize)>,
    /// Movetext tokens in order.
    pub tokens: Vec<Token<'i, R>>,
    /// How many moves the main line has.
    pub main_moves: usize,
}

/// A notation's pest parser, run on a whole record.
pub type Grammar<'i, R> = fn(&'i str) -> Result<Pairs<'i, R>, pest::error::Error<R>>;

/// The number of a move number token (`12` of `12...`), without checking
/// its size (one past `u32` wraps, and is then a number that does not
/// follow, which it is).
#[inline]
fn number_of(text: &str) -> u32 {
    let mut n = 0u32;
    for &b in text.as_bytes() {
        if !b.is_ascii_digit() {
            break;
        }
        n = n.wrapping_mul(10).wrapping_add(u32::from(b - b'0'));
    }
    n
}

/// How many times one kind of thing was mended in a record, and where the
/// first was (a byte offset): said as one warning, with the count.
#[derive(Debug, Default, Clone, Copy)]
pub struct Count {
    /// How many.
    pub n: usize,
    /// The offset of the first.
    pub first: usize,
}

impl Count {
    /// Counts one at `at`.
    pub fn add(&mut self, at: usize) {
        if self.n == 0 {
            self.first = at;
        }
        self.n += 1;
    }

    /// The warning that says `what`, at the first, with how many times.
    pub fn said(&self, text: &str, what: &str) -> Problem {
        let times = match self.n {
            1 => String::new(),
            n => format!(" ({n} times)"),
        };
        Problem::at(line_col(text, self.first), format!("{what}{times}"))
    }
}

/// Reads one record of a container notation: by the fast lexer when the
/// notation has one and it takes the record whole, otherwise (and always
/// with `grammar_only`) by the pest grammar, which `parse` runs.
pub fn read_record<'i, N: Notation>(
    text: &'i str,
    opts: &ReadOptions,
    lexing: Option<Lexing>,
    parse: Grammar<'i, N::Rule>,
    notation: &mut N,
) -> Result<Parsed, Problem> {
    if let Some(lexed) = lexing
        .filter(|_| !opts.grammar_only)
        .and_then(|l| fast::lex(text, l, N::DIALECT))
    {
        return read_lexed(text, lexed, notation);
    }
    // A record whose variations nest past the limit and are never closed
    // fails whatever the grammar says, and pest would try each level to
    // the end of its stack once per `(` (64,000 unclosed `(` took 2.4 s):
    // it is refused here, at the `(` left open or, when that lies past it,
    // the `(` that opens the first level too deep.
    if let Some(deep) = open_at_depth(text, MAX_VARIATION_DEPTH + 1) {
        if let Some((at, what)) = unclosed(text) {
            return Err(if at <= deep {
                Problem::at(line_col(text, at), what)
            } else {
                too_deep(line_col(text, deep))
            });
        }
    }
    let pairs = parse(text).map_err(|e| {
        let offset = match e.location {
            pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
        };
        match unclosed(text) {
            Some((at, what)) if at <= offset => Problem::at(line_col(text, at), what),
            _ => syntax_problem(text, e),
        }
    })?;
    read(text, pairs, notation)
}

/// The first `{` or outermost `(` of a record that is never closed, and
/// what to say about it: the cause of a syntax error at or after it (the
/// record scanner ends a comment or variation left open at the next line
/// that starts with a tag).
fn unclosed(text: &str) -> Option<(usize, &'static str)> {
    let mut open = 0;
    let walk = parens(text, |p| {
        if let Paren::Open { at, depth: 1 } = p {
            open = at;
        }
        false
    });
    match walk {
        Parens::Brace(at) => Some((
            at,
            "a `{` is never closed: its comment runs to the end of the game",
        )),
        Parens::End(depth) if depth > 0 => Some((
            open,
            "a `(` is never closed: its variation runs to the end of the game",
        )),
        Parens::End(_) | Parens::Stopped(_) => None,
    }
}

/// The `(` that opens a variation `depth` levels deep (1: a variation of
/// the main line), if the record has one.
fn open_at_depth(text: &str, depth: usize) -> Option<usize> {
    match parens(
        text,
        |p| matches!(p, Paren::Open { depth: d, .. } if d == depth),
    ) {
        Parens::Stopped(at) => Some(at),
        Parens::Brace(_) | Parens::End(_) => None,
    }
}

/// Where [`parens`] ended.
pub(crate) enum Parens {
    /// At the end of the record, with this many `(` left open.
    End(usize),
    /// At a `{` never closed.
    Brace(usize),
    /// At the `(` where the visitor said to stop.
    Stopped(usize),
}

/// A parenthesis [`parens`] meets.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Paren {
    /// A `(` at `at`, opening a variation `depth` levels deep (1: the
    /// outermost).
    Open { at: usize, depth: usize },
    /// The `)` at `at` that closes the innermost variation open.
    Close { at: usize },
    /// A `)` at `at` that closes no variation.
    Stray(usize),
}

/// Walks the parentheses of a record as the grammar nests them: tags, `{}`
/// comments, `;` and `%` lines and glyphs (`(!?)`) are skipped over. Calls
/// `visit` at every other `(` and `)`, and stops at a `(` where that
/// returns true.
pub(crate) fn parens(text: &str, mut visit: impl FnMut(Paren) -> bool) -> Parens {
    let b = text.as_bytes();
    let n = b.len();
    let (mut i, mut depth) = (0, 0usize);
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(n, |j| i + j);
    while i < n {
        match b[i] {
            b'{' => match memchr::memchr(b'}', &b[i..]) {
                Some(j) => i += j,
                None => return Parens::Brace(i),
            },
            b';' => i = line_end(i),
            b'%' if i == 0 || matches!(b[i - 1], b'\n' | b'\r') => i = line_end(i),
            b'[' if depth == 0 => {
                i = memchr::memchr2(b']', b'\n', &b[i..]).map_or(n, |j| i + j);
            }
            b'(' => {
                let marks = b[i + 1..].iter().take_while(|&&c| c == b'!' || c == b'?');
                let glyph = i + 1 + marks.count();
                if glyph > i + 1 && b.get(glyph) == Some(&b')') {
                    i = glyph;
                } else {
                    depth += 1;
                    if visit(Paren::Open { at: i, depth }) {
                        return Parens::Stopped(i);
                    }
                }
            }
            b')' if depth == 0 => {
                visit(Paren::Stray(i));
            }
            b')' => {
                visit(Paren::Close { at: i });
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Parens::End(depth)
}

/// Walks the `record` pairs of any container notation into a game.
fn read<'i, N: Notation>(
    text: &'i str,
    mut pairs: Pairs<'i, N::Rule>,
    notation: &mut N,
) -> Result<Parsed, Problem> {
    let record = pairs.next().ok_or_else(|| Problem::whole("empty record"))?;
    let mut preamble = Vec::new();
    let mut tags: Vec<Tag> = Vec::new();
    let mut tag_at: Vec<usize> = Vec::new();
    let mut body = None;
    let mut warnings = Vec::new();
    // Where a line holding a lone `[` was, not said yet.
    let mut lone = None;
    for pair in record.into_inner() {
        if !matches!(
            pair.as_rule().kind(),
            Kind::Tag | Kind::Repair(Repair::Lone)
        ) {
            if let Some(at) = lone.take() {
                warnings.push(lone_bracket(text, at));
            }
        }
        match pair.as_rule().kind() {
            Kind::Preamble => {
                for part in pair.clone().into_inner() {
                    if part.as_str().starts_with('{') && !part.as_str().ends_with('}') {
                        warnings.push(Problem::at(
                            line_col(text, part.as_span().start()),
                            "a `{` before the tags is never closed: the comment ends before the first tag",
                        ).of_kind("tag-repair"));
                    }
                }
                let tokens = PestTokens {
                    stack: vec![pair.into_inner()],
                    move_pairs: false,
                };
                for t in tokens {
                    if let Some(c) = comment(text, None, t, &mut warnings) {
                        preamble.push(c);
                    }
                }
            }
            Kind::Tag => {
                let at = pair.as_span().start();
                let (name, value) = read_tag(text, pair, lone.take(), &mut warnings);
                tags.push(Tag::new(name, value));
                tag_at.push(at);
            }
            Kind::Repair(Repair::Lone) => {
                // Said with the tag that follows it when that tag lost
                // its `[` (a tag split across lines), else on its own.
                if let Some(at) = lone.replace(pair.as_span().start()) {
                    warnings.push(lone_bracket(text, at));
                }
            }
            Kind::Body => body = Some(pair),
            _ => {}
        }
    }
    let tokens = PestTokens {
        stack: body.map(|b| b.into_inner()).into_iter().collect(),
        move_pairs: N::MOVE_PAIR,
    };
    assemble(
        text, preamble, tags, &tag_at, tokens, 0, notation, warnings, None, RUN_BYTES,
    )
}

/// The warning of a line holding a lone `[` at `at`.
fn lone_bracket(text: &str, at: usize) -> Problem {
    Problem::at(line_col(text, at), "a line holding a lone `[` was skipped").of_kind("tag-repair")
}

/// Reads a `tag` pair into its name and value, with a warning for each
/// repair of a damaged tag. `lone`: where a line holding a lone `[` came
/// just before it, not said yet.
fn read_tag<R: ContainerRule>(
    text: &str,
    pair: Pair<'_, R>,
    lone: Option<usize>,
    warnings: &mut Vec<Problem>,
) -> (String, String) {
    let start = pair.as_span().start();
    // Located only for a warning: every tag of a record would otherwise
    // count the record's lines up to it.
    let at = || line_col(text, start);
    let written = pair.as_str();
    // The tag as written, without stray text after it.
    let mut end = written.find(['\r', '\n']).unwrap_or(written.len());
    let mut name = String::new();
    let mut value = String::new();
    let mut said: Option<&str> = None;
    // The tag lost its `[` to the line before: the lone `[` is said with it.
    let mut split = false;
    for part in pair.into_inner() {
        match part.as_rule().kind() {
            Kind::TagName => name.push_str(part.as_str()),
            Kind::TagBare => value = part.as_str().trim_end().to_string(),
            Kind::TagValue => value = unescape(part.into_inner().next().map_or("", |t| t.as_str())),
            Kind::Repair(Repair::NameWords) => {
                name.extend(part.as_str().split([' ', '\t']));
                said = Some("a tag name of several words was read without its spaces");
            }
            Kind::Repair(Repair::OpenQuote) => {
                value = part.as_str().trim_end().to_string();
                said = said.or(Some("a tag value without its closing quote"));
            }
            Kind::Repair(Repair::Cut) => said = Some("a tag line cut short before its `]`"),
            Kind::Repair(Repair::Unopened) => {
                split = lone.is_some();
                said = Some(if split {
                    "a tag split across lines (`[` alone on the line before)"
                } else {
                    "a tag line without its `[`"
                });
            }
            Kind::Repair(Repair::Split) => {
                said = Some("a tag split across lines");
                // Quoted whole, its line end as a blank.
                end = written.len();
            }
            Kind::Repair(Repair::Reopen) => warnings.push(
                Problem::at(at(), "a doubled `[` before a tag name was skipped")
                    .of_kind("tag-repair"),
            ),
            Kind::Repair(Repair::Stray) => {
                end = end.min(part.as_span().start() - start);
                warnings.push(
                    Problem::at(
                        line_col(text, part.as_span().start()),
                        "text after a tag's `]` on its line was skipped",
                    )
                    .of_kind("tag-repair"),
                );
            }
            _ => {}
        }
    }
    if let Some(at) = lone.filter(|_| !split) {
        warnings.push(lone_bracket(text, at));
    }
    if let Some(what) = said {
        let mut quoted = String::new();
        write_tags(
            &[Tag::new(name.as_str(), value.as_str())],
            &mut quoted,
            &mut Vec::new(),
        );
        warnings.push(
            Problem::at(
                at(),
                format!(
                    "{what}: {} read as {}",
                    crate::error::quote(written[..end].trim_end()),
                    quoted.trim_end()
                ),
            )
            .of_kind("tag-repair"),
        );
    }
    (name, value)
}

/// Reads a record of a notation the fast lexer reads a run at a time:
/// each run, a game of its own ([`Runs::run`]), goes to `each` as soon as
/// it is read, with the variations opened and closed around the runs in
/// them, and never more than a run's tokens and plies are held. A run is
/// cut where at least [`RUN_BYTES`] of text were read since the last, at
/// any depth: then every line open hands on what it holds (the ply whose
/// variation is being read alone, once, with the variations it had). Returns the game's head (the game without its plies:
/// tags, setup, result, the main line's trailing comments) with every
/// warning, as [`read_record`] says them of the whole game. `Ok(None)`
/// where the fast lexer does not take the record: it is then read whole.
pub fn stream_record<'i, N: Runs>(
    text: &'i str,
    opts: &ReadOptions,
    lexing: Lexing,
    notation: &mut N,
    each: &mut dyn FnMut(Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let Some((lexed_tags, movetext)) = fast::lex_tags(text, lexing, N::DIALECT) else {
        return Ok(None);
    };
    let (tags, tag_at) = tags_lexed(&lexed_tags);
    let mut tokens = Pieces {
        movetext,
        piece: Vec::new().into_iter(),
        done: false,
        failed: false,
    };
    let mut flush = |n: &mut N, piece: Flushed<'_>| -> Result<Option<Setup>, Problem> {
        match piece {
            Flushed::Begin => Ok(n.start_position()),
            Flushed::Run { plies, from, depth } => {
                let (mut run, after) = n.run(std::mem::take(plies), from, depth)?;
                each(Piece::Run(&run))?;
                // (The buffer goes back to the line it came from.)
                *plies = std::mem::take(&mut run.moves.plies);
                Ok(after)
            }
            Flushed::Open => each(Piece::Open).map(|()| None),
            Flushed::Close(trailing) => each(Piece::Close(trailing)).map(|()| None),
        }
    };
    let parsed = assemble(
        text,
        Vec::new(),
        tags,
        &tag_at,
        &mut tokens,
        0,
        notation,
        Vec::new(),
        Some(&mut flush),
        run_bytes(opts),
    );
    if tokens.failed {
        return Ok(None);
    }
    parsed.map(Some)
}

/// The tokens of a movetext lexed a piece at a time ([`fast::Movetext`]).
struct Pieces<'i, R: RuleType> {
    movetext: fast::Movetext<'i>,
    piece: std::vec::IntoIter<Token<'i, R>>,
    done: bool,
    /// The lexer gave up: the tokens end early, and the record is read
    /// whole.
    failed: bool,
}

/// How many tokens a piece of [`Pieces`] holds.
const PIECE_TOKENS: usize = 4096;

impl<'i, R: RuleType> Iterator for Pieces<'i, R> {
    type Item = Token<'i, R>;

    fn next(&mut self) -> Option<Token<'i, R>> {
        loop {
            if let Some(t) = self.piece.next() {
                return Some(t);
            }
            if self.done || self.failed {
                return None;
            }
            let mut piece = Vec::with_capacity(PIECE_TOKENS);
            match self.movetext.fill::<true, R>(&mut piece, PIECE_TOKENS) {
                Some(done) => self.done = done,
                None => self.failed = true,
            }
            self.piece = piece.into_iter();
        }
    }
}

/// The tags the fast lexer read, and where each is in the record.
fn tags_lexed(lexed: &fast::LexedTags<'_>) -> (Vec<Tag>, Vec<usize>) {
    lexed
        .iter()
        .map(|&(name, value, at)| (Tag::new(name, value), at))
        .unzip()
}

/// Builds a game from a record the fast lexer read.
fn read_lexed<'i, N: Notation>(
    text: &'i str,
    lexed: Lexed<'i, N::Rule>,
    notation: &mut N,
) -> Result<Parsed, Problem> {
    let (tags, tag_at) = tags_lexed(&lexed.tags);
    let moves = lexed.main_moves;
    let tokens = lexed.tokens.into_iter();
    assemble(
        text,
        Vec::new(),
        tags,
        &tag_at,
        tokens,
        moves,
        notation,
        Vec::new(),
        None,
        RUN_BYTES,
    )
}

/// The shared end of both readers: the board from the tags, then the
/// movetext walked into lines (`moves` is the main line's length, when known).
#[allow(clippy::too_many_arguments)]
fn assemble<'i, N: Notation>(
    text: &'i str,
    preamble: Vec<Comment>,
    tags: Vec<Tag>,
    tag_at: &[usize],
    mut tokens: impl Iterator<Item = Token<'i, N::Rule>>,
    moves: usize,
    notation: &mut N,
    mut warnings: Vec<Problem>,
    runs: Option<&mut RunFlush<'_, N>>,
    run_bytes: usize,
) -> Result<Parsed, Problem> {
    let result_tag = tags.iter().position(|t| t.name == "Result");
    check_result_tag(
        text,
        &tags,
        tag_at,
        result_tag,
        N::DIALECT.results,
        &mut warnings,
    );
    for name in N::DIALECT.lifted {
        let mut named = tags
            .iter()
            .enumerate()
            .filter(|(_, t)| t.name.eq_ignore_ascii_case(name));
        if let (Some(_), Some((i, again))) = (named.next(), named.next()) {
            warnings.push(
                Problem::at(
                    line_col(text, tag_at[i]),
                    format!(
                        "a second {} tag: the first is read, this one is kept as written and not read",
                        again.name
                    ),
                )
                .of_kind("repeated-tag"),
            );
        }
    }
    let at = |name: &str| -> (usize, usize) {
        find_tag(&tags, name).map_or((1, 1), |i| line_col(text, tag_at[i]))
    };
    let start = notation.start(&tags, &at)?;
    warnings.extend(start.warnings);
    let mut game = Game::new(start.variant);
    game.preamble = preamble;
    game.setup = start.setup;
    let first = game.variant.first_mover();
    let mut walker = Walker {
        text,
        shared: None,
        notation,
        first,
        warnings: &mut warnings,
        result: None,
        last_move: None,
        depth: 0,
        bare_number: false,
        off_numbers: Count::default(),
        scratch: Vec::new(),
        runs,
        run_from: 0,
        run_bytes,
        frames: Vec::new(),
        open: Vec::new(),
        handed_on: false,
    };
    if walker.runs.is_some() {
        let pos = walker.emit(Flushed::Begin)?;
        walker.open.push(Open {
            announced: true,
            pos,
            ..Open::default()
        });
    }
    let (number, side) = (start.number.unwrap_or(1), start.to_move.unwrap_or(first));
    if walker.runs.is_none() {
        game.moves.plies.reserve(moves);
    }
    let main = std::mem::take(&mut game.moves);
    game.moves = walker.line(
        main,
        &mut tokens,
        number,
        side,
        start.to_move.is_some(),
        true,
    )?;
    game.result = walker.result;
    let last_move = walker.last_move;
    let off = walker.off_numbers;
    if off.n > 0 {
        warnings.push(
            off.said(
                text,
                "a move number does not follow the moves before it: the moves are numbered in their order",
            )
            .of_kind("move-number"),
        );
    }
    check_result_agrees(
        text,
        &tags,
        tag_at,
        result_tag,
        game.result,
        N::DIALECT.results,
        &mut warnings,
    );
    game.tags = tags;
    check_score_as_move(text, &game, last_move)?;
    notation.finish(&mut game, &mut warnings)?;
    Ok(Parsed { game, warnings })
}

/// A Result tag holding a placeholder (`?`, empty) or a spaced result
/// (`1 - 0`) is read as the result it means ([`Game::effective_result`]) and
/// kept as written, with a warning.
fn check_result_tag(
    text: &str,
    tags: &[Tag],
    tag_at: &[usize],
    result_tag: Option<usize>,
    results: &Results,
    warnings: &mut Vec<Problem>,
) {
    let Some(i) = result_tag else {
        return;
    };
    let value = tags[i].value.as_str();
    if results.parse(value).is_none() && GameResult::parse(value).is_none() {
        let damaged = results
            .parse_damaged(value)
            .or_else(|| GameResult::parse_damaged(value));
        if let Some((_, repair)) = damaged {
            warnings.push(
                Problem::at(line_col(text, tag_at[i]), repair.message()).of_kind(repair.kind()),
            );
        }
    }
}

/// A Result tag that says another result than the movetext ends with
/// (`[Result "1-0"]` and `0-1`; [`crate::ir::Outcome::agrees`]): both are
/// kept as written, with a warning (pgn-extract reports it too; `--strict`
/// fails the game).
fn check_result_agrees(
    text: &str,
    tags: &[Tag],
    tag_at: &[usize],
    result_tag: Option<usize>,
    result: Option<GameResult>,
    results: &Results,
    warnings: &mut Vec<Problem>,
) {
    let Some(ended) = result else { return };
    let Some(i) = result_tag else {
        return;
    };
    let Some(said) = results.parse(tags[i].value.trim()) else {
        return;
    };
    if !said.outcome.agrees(ended.outcome) {
        warnings.push(
            Problem::at(
                line_col(text, tag_at[i]),
                format!(
                    "the Result tag says {} but the game ends with {}: both are kept as written",
                    crate::error::quote(&tags[i].value),
                    crate::error::quote(ended.token())
                ),
            )
            .of_kind("result-mismatch"),
        );
    }
}

/// A game with no result token whose last move is spelled like its Result
/// tag (`4-6` in Delfts scoring) ends with a score kifu would otherwise take
/// for a move: refuse it rather than invent a move.
fn check_score_as_move(
    text: &str,
    game: &Game,
    last_move: Option<(&str, usize)>,
) -> Result<(), Problem> {
    if game.result.is_some() {
        return Ok(());
    }
    match (game.tag("Result"), last_move) {
        (Some(r), Some((mv, at))) if !r.is_empty() && r == mv => Err(Problem::at(
            line_col(text, at),
            format!(
                "the game ends with {}, its Result tag, which is not a result this notation knows",
                crate::error::quote(mv)
            ),
        )),
        _ => Ok(()),
    }
}

/// The comment a token holds, if it is one: a slice of the record `text`,
/// shared as `shared` (made at the record's first comment), or its own
/// copy where there is none (a record longer than [`SHARED_RECORD`]).
fn comment<R: RuleType>(
    text: &str,
    shared: Option<&mut Option<Arc<str>>>,
    token: Token<'_, R>,
    warnings: &mut Vec<Problem>,
) -> Option<Comment> {
    let (kind, body) = match token {
        Token::Comment(kind, body, _) => (kind, body),
        Token::ParenComment(body, at) => {
            warnings.push(
                Problem::at(
                    line_col(text, at),
                    "text in parentheses that is not a variation was read as a comment",
                )
                .of_kind("paren-comment"),
            );
            (CommentKind::Brace, body)
        }
        _ => return None,
    };
    // Where the body is in the record (the lexers give slices of it).
    let at = (body.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let range = at..at.wrapping_add(body.len());
    let in_record = text
        .get(range.clone())
        .is_some_and(|r| std::ptr::eq(r, body));
    let text = match shared {
        Some(record) if in_record => {
            Text::slice(record.get_or_insert_with(|| Arc::from(text)), range)
        }
        _ => None,
    };
    Some(Comment {
        text: text.unwrap_or_else(|| Text::from(body)),
        kind,
    })
}

struct Walker<'n, 'w, 'r, 'i, N: Notation> {
    text: &'i str,
    /// The record, shared by its comments ([`Text`]), once one is read.
    shared: Option<Arc<str>>,
    notation: &'n mut N,
    first: Side,
    warnings: &'w mut Vec<Problem>,
    result: Option<GameResult>,
    /// Text and offset of the last move read on the main line.
    last_move: Option<(&'i str, usize)>,
    /// How many variations are open.
    depth: usize,
    /// A move number without its dot was seen (warned once a game).
    bare_number: bool,
    /// The move numbers that do not follow the moves before them.
    off_numbers: Count,
    /// The plies of the variation being read at each depth, reused: a
    /// variation's line is allocated once, at its length.
    scratch: Vec<Vec<Ply>>,
    /// Where the main line's plies go a run at a time, when the record is
    /// read so ([`stream_record`]).
    runs: Option<&'w mut RunFlush<'r, N>>,
    /// Where the run being read started in the record.
    run_from: usize,
    /// How much text a run holds at least ([`run_bytes`]).
    run_bytes: usize,
    /// The lines open above the one being read, while a variation is read
    /// (when the record is read a run at a time).
    frames: Vec<Line>,
    /// What was handed on of each line open, by depth (the main line's
    /// first), when the record is read a run at a time.
    open: Vec<Open>,
    /// The variation just read was handed on as it was read: its parent
    /// does not hold it.
    handed_on: bool,
}

/// What was handed on of a line open ([`stream_record`]).
#[derive(Debug, Clone, Default)]
struct Open {
    /// The line was opened in the stream ([`Piece::Open`]): what is left of
    /// it is handed on when it ends, and its parent does not hold it.
    announced: bool,
    /// The line's first ply was handed on (without the variations read
    /// after): the ply whose variation was being read.
    head_done: bool,
    /// The position before the line's first ply not handed on.
    pos: Option<Setup>,
    /// The position before the first ply, when it was handed on (its
    /// variations start there).
    open_pos: Option<Setup>,
}

/// What the walker hands on of a record read a run at a time.
enum Flushed<'a> {
    /// The reading begins: the position the main line starts from.
    Begin,
    /// A run of plies of the line open, from a position; the vector is
    /// given back (emptied or not), and the position after them returned.
    Run {
        plies: &'a mut Vec<Ply>,
        from: &'a Option<Setup>,
        /// The depth of the line (0: the main line).
        depth: usize,
    },
    /// A variation of the last ply handed on opens.
    Open,
    /// The variation open closes, after these comments.
    Close(&'a [Comment]),
}

/// What takes the pieces of a record read a run at a time
/// ([`stream_record`]).
type RunFlush<'f, N> = dyn FnMut(&mut N, Flushed<'_>) -> Result<Option<Setup>, Problem> + 'f;

/// The longest record whose comments share it ([`Text`]), copied once
/// for them: a longer one, read a run at a time, is not copied whole, and
/// each comment is a copy of its own.
const SHARED_RECORD: usize = 1 << 20;

/// The error of a record whose stream cannot go on (a glyph or NAG after
/// the variations of a move already handed on, which the container writes
/// before them): it is read whole.
const NOT_STREAMED: &str = "a glyph or NAG after the variations of a move handed on";

/// How much of a record's text is read between two cuts, at least: the
/// lines open are cut before the first move past it, at any depth.
pub const RUN_BYTES: usize = 16 << 10;

/// How much text a run holds for these options: [`RUN_BYTES`], or less
/// where records are streamed from a smaller size on (`--stream-above 0`
/// makes each ply a run, which the tests use to cut games everywhere).
fn run_bytes(opts: &ReadOptions) -> usize {
    opts.stream_above.map_or(RUN_BYTES, |s| s.min(RUN_BYTES))
}

/// The warning of a game with move numbers written without their dot.
pub const BARE_NUMBER: &str = "a move number written without its dot (`29 Qxf8+`) was read";

impl<'i, N: Notation> Walker<'_, '_, '_, 'i, N> {
    /// Reads one line into `line` (empty), up to the `)` that closes it or
    /// the end of the movetext. `number` and `side` are those of its first ply;
    /// `fixed_side` says the side is known (a setup, or a variation) and a
    /// move number's dots must not change it.
    fn line(
        &mut self,
        mut line: Line,
        tokens: &mut impl Iterator<Item = Token<'i, N::Rule>>,
        mut number: u32,
        mut side: Side,
        fixed_side: bool,
        main: bool,
    ) -> Result<Line, Problem> {
        let mut pending: Vec<Comment> = Vec::new();
        if self.runs.is_some() && !main {
            if self.open.len() <= self.depth {
                self.open.resize_with(self.depth + 1, Open::default);
            }
            self.open[self.depth] = Open::default();
        }
        if !main {
            // A variation's plies go to the reused buffer of its depth,
            // then into a line of their number: growing each line by
            // doubling took four plies' room for a variation of one.
            if self.scratch.len() < self.depth {
                self.scratch.resize_with(self.depth, Vec::new);
            }
            std::mem::swap(&mut line.plies, &mut self.scratch[self.depth - 1]);
        }
        let mut numbered = !main;
        // Numbers count plies, not move pairs (a constant of the notation,
        // folded where the walker is compiled for it).
        let per_ply = matches!(N::DIALECT.numbering, Numbering::Ply { .. });
        let record = self.text;
        let at = |offset: usize| line_col(record, offset);
        while let Some(token) = tokens.next() {
            // `29 Qxf8+`: a move number without its dot, which the chess
            // grammar reads.
            if let Token::MoveNumber(text, offset) = token {
                if text.as_bytes().last().is_some_and(u8::is_ascii_digit) {
                    self.bare_number(offset);
                }
            }
            match token {
                Token::Move(text, offset, pair) => {
                    if main {
                        self.last_move = Some((text, offset));
                    }
                    if self.runs.is_some() && offset - self.run_from >= self.run_bytes {
                        self.flush(&mut line)?;
                        self.run_from = offset;
                    }
                    let mv = self.notation.read_move(MoveText {
                        record: self.text,
                        at: offset,
                        text,
                        pair,
                    })?;
                    let mut ply = Ply::new(number, side, mv);
                    ply.before = std::mem::take(&mut pending);
                    line.plies.push(ply);
                    numbered = true;
                    if per_ply || side != self.first {
                        number += 1;
                    }
                    side = side.other();
                }
                Token::MoveNumber(text, offset) if !numbered && line.plies.is_empty() => {
                    number = N::DIALECT.numbering.digits(text).parse().map_err(|_| {
                        Problem::at(
                            at(offset),
                            format!("move number {} is too large", crate::error::quote(text)),
                        )
                    })?;
                    if !fixed_side {
                        if let Some(s) = N::DIALECT.numbering.side_of(text, number, self.first) {
                            side = s;
                        }
                    }
                    numbered = true;
                }
                Token::Ellipsis if line.plies.is_empty() && !fixed_side => {
                    side = self.first.other();
                }
                Token::Glyph(_, offset) | Token::Nag(_, offset) if self.last_handed_on(&line) => {
                    return Err(Problem::at(at(offset), NOT_STREAMED))
                }
                Token::Glyph(text, offset) => match line.plies.last_mut() {
                    Some(ply) if ply.glyph.is_none() => ply.glyph = Some(text.to_string()),
                    Some(_) => return Err(Problem::at(at(offset), "a second glyph for one move")),
                    None => pending.push(self.annotation_first(text, offset)),
                },
                Token::Nag(text, offset) => {
                    let value = nag_value(text).ok_or_else(|| {
                        Problem::at(
                            at(offset),
                            format!("NAG {} is too large", crate::error::quote(text)),
                        )
                    })?;
                    match line.plies.last_mut() {
                        Some(ply) => ply.nags.push(value),
                        None => pending.push(self.annotation_first(text, offset)),
                    }
                }
                t @ (Token::Comment(..) | Token::ParenComment(..)) => {
                    let shared = (self.text.len() <= SHARED_RECORD).then_some(&mut self.shared);
                    if let Some(c) = comment(self.text, shared, t, self.warnings) {
                        let handed_on = self.last_handed_on(&line);
                        match line.plies.last_mut() {
                            // (A ply handed on had variations.)
                            Some(ply)
                                if ply.variations.is_empty()
                                    && pending.is_empty()
                                    && !handed_on =>
                            {
                                // Room for one comment, as for variations.
                                ply.after.reserve_exact(1);
                                ply.after.push(c)
                            }
                            _ => pending.push(c),
                        }
                    }
                }
                Token::Open(offset) => {
                    let (n, s) = match line.plies.last() {
                        Some(ply) => (ply.number, ply.side),
                        None => return Err(Problem::at(at(offset), "a variation before any move")),
                    };
                    if self.depth == MAX_VARIATION_DEPTH {
                        return Err(too_deep(at(offset)));
                    }
                    self.depth += 1;
                    // Read a run at a time, the lines open are the walker's
                    // while the variation is read.
                    let streamed = self.runs.is_some();
                    if streamed {
                        self.frames.push(std::mem::take(&mut line));
                    }
                    let var = self.line(Line::default(), tokens, n, s, true, false);
                    if streamed {
                        line = self.frames.pop().unwrap_or_default();
                    }
                    let var = var?;
                    self.depth -= 1;
                    if std::mem::take(&mut self.handed_on) {
                        continue;
                    }
                    if let Some(ply) = line.plies.last_mut() {
                        // Most plies have one variation, if any: room for
                        // one, not the four a first push makes.
                        ply.variations.reserve_exact(1);
                        ply.variations.push(var);
                    }
                }
                Token::Close => break,
                Token::Result(text, offset) => {
                    let results = N::DIALECT.results;
                    self.result = results.parse(text).or_else(|| {
                        let (result, repair) = results.parse_damaged(text)?;
                        self.warnings
                            .push(Problem::at(at(offset), repair.message()).of_kind(repair.kind()));
                        Some(result)
                    })
                }
                Token::StrayBrace(offset) => self.warnings.push(
                    Problem::at(at(offset), "a `}` outside any comment was skipped")
                        .of_kind("stray-brace"),
                ),
                Token::MoveNumber(text, offset) => {
                    if number_of(text) != number {
                        self.off_numbers.add(offset);
                    }
                }
                Token::Ellipsis => {}
            }
        }
        line.trailing = pending;
        if self.runs.is_some() {
            self.end_line(&mut line, main)?;
        }
        if !main {
            let plies = line.plies.drain(..).collect();
            self.scratch[self.depth - 1] = std::mem::replace(&mut line.plies, plies);
        }
        Ok(line)
    }

    /// Hands a piece of a record read a run at a time on.
    fn emit(&mut self, piece: Flushed<'_>) -> Result<Option<Setup>, Problem> {
        match self.runs.as_mut() {
            Some(runs) => runs(self.notation, piece),
            None => Ok(None),
        }
    }

    /// Whether the last ply of `line`, the line being read, was handed on
    /// (read a run at a time).
    fn last_handed_on(&self, line: &Line) -> bool {
        self.runs.is_some() && line.plies.len() == 1 && self.open[self.depth].head_done
    }

    /// Hands on what every line open holds (`current` is the one being
    /// read, at the walker's depth; those above it are the walker's
    /// frames), in the order of the text: of each line above, its plies up
    /// to the one whose variation is being read, that ply alone, then the
    /// variation opened; of `current`, every ply.
    fn flush(&mut self, current: &mut Line) -> Result<(), Problem> {
        let depth = self.depth;
        for k in 0..depth {
            let mut line = std::mem::take(&mut self.frames[k]);
            let handed = self.hand_on(k, &mut line, true);
            self.frames[k] = line;
            handed?;
            if !self.open[k + 1].announced {
                self.emit(Flushed::Open)?;
                self.open[k + 1] = Open {
                    announced: true,
                    pos: self.open[k].open_pos.clone(),
                    ..Open::default()
                };
            }
        }
        self.hand_on(depth, current, false)
    }

    /// Hands on the plies of `line`, at depth `k`, that were not: first
    /// the variations of its first ply read since that ply was handed on,
    /// then its plies, all of them or (`keep_last`) those before its last,
    /// which is then handed on alone, with the variations it has, and kept.
    fn hand_on(&mut self, k: usize, line: &mut Line, keep_last: bool) -> Result<(), Problem> {
        let mut plies = std::mem::take(&mut line.plies);
        let handed = (|| {
            if self.open[k].head_done {
                let from = self.open[k].open_pos.clone();
                for mut var in std::mem::take(&mut plies[0].variations) {
                    self.emit(Flushed::Open)?;
                    self.emit(Flushed::Run {
                        plies: &mut var.plies,
                        from: &from,
                        depth: k + 1,
                    })?;
                    self.emit(Flushed::Close(&var.trailing))?;
                }
                if keep_last && plies.len() == 1 {
                    return Ok(());
                }
                plies.remove(0);
                self.open[k].head_done = false;
            }
            let last = if keep_last { plies.pop() } else { None };
            if !plies.is_empty() {
                let from = self.open[k].pos.clone();
                self.open[k].pos = self.emit(Flushed::Run {
                    plies: &mut plies,
                    from: &from,
                    depth: k,
                })?;
            }
            plies.clear();
            if let Some(ply) = last {
                let from = self.open[k].pos.clone();
                let mut alone = vec![ply];
                let after = self.emit(Flushed::Run {
                    plies: &mut alone,
                    from: &from,
                    depth: k,
                })?;
                let mut ply = alone.pop().ok_or_else(|| Problem::whole(NOT_STREAMED))?;
                // Written with it.
                ply.variations.clear();
                plies.push(ply);
                self.open[k].open_pos = from;
                self.open[k].pos = after;
                self.open[k].head_done = true;
            }
            Ok(())
        })();
        line.plies = plies;
        handed
    }

    /// Ends a line of a record read a run at a time: the main line, or a
    /// variation opened in the stream, hands on what is left of it, and
    /// the variation closes (its parent then does not hold it).
    fn end_line(&mut self, line: &mut Line, main: bool) -> Result<(), Problem> {
        let depth = self.depth;
        if !main && !self.open[depth].announced {
            return Ok(());
        }
        self.hand_on(depth, line, false)?;
        if !main {
            let trailing = std::mem::take(&mut line.trailing);
            self.emit(Flushed::Close(&trailing))?;
            self.handed_on = true;
        }
        self.open[depth] = Open::default();
        Ok(())
    }

    /// A NAG or glyph before any move of its line (`$22 {...} 1. e4`):
    /// kept as a comment that holds it as written, with a warning.
    #[cold]
    fn annotation_first(&mut self, text: &str, offset: usize) -> Comment {
        self.warnings.push(
            Problem::at(
                line_col(self.text, offset),
                format!(
                    "{} before any move was kept as a comment",
                    crate::error::quote(text)
                ),
            )
            .of_kind("annotation-before-move"),
        );
        Comment::brace(text)
    }

    /// Warns (once a game) of a move number written without its dot, which
    /// the chess grammar reads.
    #[cold]
    fn bare_number(&mut self, offset: usize) {
        if !self.bare_number {
            self.bare_number = true;
            self.warnings.push(
                Problem::at(line_col(self.text, offset), BARE_NUMBER).of_kind("bare-move-number"),
            );
        }
    }
}

/// Tags that lead a canonical tag section, in this order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Writes a tag section: the seven-tag roster first in roster order, then the
/// other tags in input order, then a blank line (none when there are no tags).
/// A tag is one line: line breaks in a value (which JSON, XML or CSV may
/// hold) are written as spaces, and a name that the grammar would not read
/// back as one name (empty, or holding a blank, a quote, a bracket or a
/// line break) is written with `_` for each such character, each with a
/// warning in `warnings`.
pub fn write_tags(tags: &[Tag], out: &mut String, warnings: &mut Vec<Problem>) {
    // Every such character is ASCII: checked by bytes (this runs for every
    // tag of every game), replaced by chars.
    let not_in_name = |b: u8| matches!(b, b' ' | b'\t' | b'"' | b']' | b'[' | b'\r' | b'\n');
    let one_word = |name: &str| !name.is_empty() && !name.bytes().any(not_in_name);
    let mut write_one = |t: &Tag, out: &mut String| {
        out.push('[');
        if !one_word(&t.name) {
            let name = match t
                .name
                .replace(|c: char| c.is_ascii() && not_in_name(c as u8), "_")
            {
                n if n.is_empty() => "_".to_string(),
                n => n,
            };
            warnings.push(
                Problem::whole(format!(
                    "tag name {} is not one word: written as {}",
                    crate::error::quote(&t.name),
                    crate::error::quote(&name)
                ))
                .of_kind("tag-name"),
            );
            out.push_str(&name);
        } else {
            out.push_str(&t.name);
        }
        out.push_str(" \"");
        // Nearly every value is plain: one pass over its bytes tells.
        let plain = !t
            .value
            .bytes()
            .any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'));
        if plain {
            out.push_str(&t.value);
        } else {
            let value = one_line(
                &t.value,
                || format!("tag {}", crate::error::quote(&t.name)),
                warnings,
            );
            for c in value.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
        }
        out.push_str("\"]\n");
    };
    for name in SEVEN_TAG_ROSTER {
        for t in tags.iter().filter(|t| t.name == name) {
            write_one(t, out);
        }
    }
    for t in tags
        .iter()
        .filter(|t| !SEVEN_TAG_ROSTER.contains(&t.name.as_str()))
    {
        write_one(t, out);
    }
    if !tags.is_empty() {
        out.push('\n');
    }
}

/// Lays out movetext tokens in lines: of at most 80 columns in a
/// paragraph, a move pair a line in pairs. A token is never split, so a
/// comment longer than a line keeps its own line.
struct Lines<'o> {
    out: &'o mut String,
    /// What the container cannot hold as it is (written otherwise).
    warnings: &'o mut Vec<Problem>,
    col: usize,
    /// The next token is glued to the previous one (after `(`).
    glue: bool,
    /// Write `!`, `?`, `!!`, `??`, `!?`, `?!` as the NAGs `$1`..`$6`.
    glyphs_as_nags: bool,
    /// The widest line: 80 in a paragraph, unbounded in pairs.
    width: usize,
}

/// How a notation's writer spells what the container holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Write the traditional move suffixes as NAGs, as PGN export format
    /// requires (`Kg7?!` becomes `Kg7 $6`); other glyphs stay glued.
    pub glyphs_as_nags: bool,
    /// How the movetext is laid out in lines (one of the dialect's).
    pub layout: Layout,
}

/// The symbols read where a NAG goes (`grammars/common.pest`, `nag_symbol`),
/// and their NAGs, as ChessBase, lichess (scalachess's `Glyph`) and the
/// PGN standard's table give them. They are written as `$n`.
pub const NAG_SYMBOLS: [(&str, u32); 24] = [
    ("=∞", 44),
    ("=/∞", 44),
    ("+/=", 14),
    ("=/+", 15),
    ("+/-", 16),
    ("-/+", 17),
    ("+-", 18),
    ("-+", 19),
    ("+−", 18),
    ("−+", 19),
    ("⩲", 14),
    ("⩱", 15),
    ("±", 16),
    ("∓", 17),
    ("∞", 13),
    ("□", 7),
    ("⨀", 22),
    ("⇆", 132),
    ("↑↑", 32),
    ("↑", 36),
    ("→", 40),
    ("⊕", 138),
    ("∆", 140),
    ("=", 10),
];

/// The NAG of a `nag` token: `$14`, or a symbol of [`NAG_SYMBOLS`]; `None`
/// for a number too large.
fn nag_value(text: &str) -> Option<u32> {
    match text.strip_prefix('$') {
        Some(digits) => digits.parse().ok(),
        None => NAG_SYMBOLS
            .iter()
            .find(|&&(s, _)| s == text)
            .map(|&(_, n)| n),
    }
}

/// The NAG of a traditional move suffix.
fn glyph_nag(glyph: &str) -> Option<u32> {
    crate::ir::SUFFIX_NAGS
        .iter()
        .position(|&g| g == glyph)
        .map(|i| i as u32 + 1)
}

const WIDTH: usize = 80;

impl Lines<'_> {
    fn token(&mut self, tok: &str) {
        // Width in characters and the last line break (moves, numbers and
        // NAGs are ASCII on one line: their width is their length).
        let (len, last_break) = if tok.bytes().all(|b| b < 0x80 && b != b'\n') {
            (tok.len(), None)
        } else {
            (tok.chars().count(), tok.rfind('\n'))
        };
        self.put("", tok, "", len, last_break);
    }

    /// Writes `body` between `open` and `close` (ASCII, no line break) as
    /// one token, [`Lines::token`] of the three put together, without
    /// putting them together: a comment costs what copying it costs.
    fn wrapped(&mut self, open: &str, body: &str, close: &str) {
        match body.rfind('\n') {
            None => self.unbroken(open, body, close),
            Some(i) => {
                let len = open.len() + body.chars().count() + close.len();
                self.put(open, body, close, len, Some(i));
            }
        }
    }

    /// [`Lines::wrapped`] of a `body` without a line break.
    fn unbroken(&mut self, open: &str, body: &str, close: &str) {
        // An `|` of every byte, which does not stop early, runs a vector
        // at a time.
        let len = if body.bytes().fold(0, |a, x| a | x) < 0x80 {
            body.len()
        } else {
            body.chars().count()
        };
        self.put(open, body, close, open.len() + len + close.len(), None);
    }

    /// Places a token of `len` characters, `open`, `body` and `close`,
    /// whose last line break (in `body`) is at `last_break`.
    #[inline(always)]
    fn put(&mut self, open: &str, body: &str, close: &str, len: usize, last_break: Option<usize>) {
        if self.glue {
            self.glue = false;
        } else if self.col > 0 {
            if self.col + 1 + len > self.width {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(open);
        self.out.push_str(body);
        self.out.push_str(close);
        match last_break {
            Some(i) => self.col = body[i + 1..].chars().count() + close.len(),
            None => self.col += len,
        }
    }

    /// A token that must end its line (`;` comments).
    fn line_end(&mut self) {
        self.out.push('\n');
        self.col = 0;
    }

    /// A token that must start at column 1 and end its line (`%` lines).
    fn own_line(&mut self, mark: &str, tok: &str) {
        if self.col > 0 {
            self.out.push('\n');
        }
        self.out.push_str(mark);
        self.out.push_str(tok);
        self.out.push('\n');
        self.col = 0;
        self.glue = false;
    }

    fn comment(&mut self, c: &Comment) -> Result<(), Problem> {
        match c.kind {
            // Most comments hold no `}` and no line break: written as they
            // were read, on one line (one pass over them to know so).
            CommentKind::Brace
                if memchr::memchr3(b'}', b'\n', b'\r', c.text.as_bytes()).is_none() =>
            {
                self.unbroken("{", &c.text, "}")
            }
            CommentKind::Brace => {
                let text = brace_text(&c.text, self.warnings)?;
                self.wrapped("{", &text, "}");
            }
            CommentKind::Line => {
                let text = one_line(&c.text, || "a `;` comment".into(), self.warnings);
                self.wrapped(";", &text, "");
                self.line_end();
            }
            CommentKind::Escape => {
                let text = one_line(&c.text, || "a `%` line".into(), self.warnings);
                self.own_line("%", &text);
            }
        }
        Ok(())
    }

    fn open(&mut self) {
        self.token("(");
        self.glue = true;
    }

    /// Ends the line, unless nothing is on it (a new move pair in pairs).
    fn break_line(&mut self) {
        if self.col > 0 {
            self.out.push('\n');
            self.col = 0;
            self.glue = false;
        }
    }

    fn close(&mut self) {
        if self.col + 1 > self.width {
            self.out.push('\n');
            self.col = 0;
        }
        self.out.push(')');
        self.col += 1;
        self.glue = false;
    }
}

/// Writes a whole game in the PGN-style container: preamble comments, tags,
/// movetext numbered and laid out as the dialect and style say, and the
/// result, ending with a newline. `tags` are the tags to write: the game's
/// own, or those with what the target adds to them; `spell` writes one
/// ply's move in the target notation. The result is the dialect's token for
/// [`Game::result_in`] (`*` for one the dialect has no token for). Returns
/// the warnings: a result the family does not know, and what a comment
/// cannot hold as it is (`brace_text`). The one way a container game is
/// written, whole or a run at a time ([`Movetext`]).
pub fn write<F>(
    game: &Game,
    tags: &[Tag],
    out: &mut String,
    dialect: &Dialect,
    style: Style,
    spell: F,
) -> Result<Vec<Problem>, Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let mut movetext = Movetext::new(game.variant.first_mover(), dialect, style);
    movetext.head(game, tags, out)?;
    movetext.plies(&game.moves.plies, out, spell)?;
    movetext.end(
        game,
        || Cow::Borrowed(tags),
        dialect,
        &mut String::new(),
        out,
    )
}

/// A container game's text written a run at a time: the
/// movetext first, as the runs come ([`Movetext::plies`]), then its end,
/// and the head (preamble and tags) put before it ([`Movetext::end`]), so
/// that the head may say what only the whole game knows (its result). A
/// writer that holds the whole game writes the head first
/// ([`Movetext::head`]).
pub struct Movetext {
    /// The warnings of the head, when it was written first.
    head: Option<Vec<Problem>>,
    col: usize,
    glue: bool,
    /// Whether the next ply of each open line is written with its number:
    /// the main line's first, then each variation open in it
    /// ([`Movetext::open`]).
    need_number: bool,
    /// The same, of each variation open ([`Movetext::open`]), outermost
    /// first.
    need_in: Vec<bool>,
    numbers: Numbers,
    glyphs_as_nags: bool,
    width: usize,
    /// The warnings of the movetext so far.
    warnings: Vec<Problem>,
}

impl Movetext {
    /// The movetext of a game whose first mover is `first`.
    pub fn new(first: Side, dialect: &Dialect, style: Style) -> Movetext {
        Movetext {
            head: None,
            col: 0,
            glue: false,
            need_number: true,
            need_in: Vec::new(),
            numbers: Numbers {
                first,
                numbering: dialect.numbering,
                pairs: style.layout == Layout::Pairs,
            },
            glyphs_as_nags: style.glyphs_as_nags,
            width: match style.layout {
                Layout::Paragraph => WIDTH,
                Layout::Pairs => usize::MAX,
            },
            warnings: Vec::new(),
        }
    }

    /// Writes the head (`game`'s preamble and `tags`) first, before any
    /// ply, where the whole game is known.
    pub fn head(&mut self, game: &Game, tags: &[Tag], out: &mut String) -> Result<(), Problem> {
        let mut warnings = Vec::new();
        write_head(game, tags, out, &mut warnings)?;
        self.head = Some(warnings);
        Ok(())
    }

    /// Writes the next plies of the line open (the main line, or the
    /// variation [`Movetext::open`] opened last), with their comments and
    /// variations, to `out`.
    pub fn plies<F>(&mut self, plies: &[Ply], out: &mut String, mut spell: F) -> Result<(), Problem>
    where
        F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
    {
        let main = self.need_in.is_empty();
        let numbers = self.numbers;
        let mut buf = String::new();
        let (mut lines, need) = self.lines(out);
        let written = write_plies(plies, need, numbers, main, &mut lines, &mut spell, &mut buf);
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        written
    }

    /// Opens a variation of the last ply written, whose plies
    /// [`Movetext::plies`] then writes.
    pub fn open(&mut self, out: &mut String) {
        let (mut lines, _) = self.lines(out);
        lines.open();
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        self.need_in.push(true);
    }

    /// [`Movetext::open`] of a game's movetext, which a variation cannot
    /// open before any move began it.
    pub fn open_in(movetext: Option<&mut Movetext>, out: &mut String) -> Result<(), Problem> {
        let movetext = movetext.ok_or_else(crate::codec::opened_first)?;
        movetext.open(out);
        Ok(())
    }

    /// [`Movetext::close`] of a game's movetext, begun or not.
    pub fn close_in(
        movetext: Option<&mut Movetext>,
        trailing: &[Comment],
        out: &mut String,
    ) -> Result<(), Problem> {
        movetext
            .ok_or_else(|| Problem::whole("a variation closed before any move"))?
            .close(trailing, out)
    }

    /// Closes the variation open, after its `trailing` comments.
    pub fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.need_in.is_empty() {
            return Err(crate::codec::not_open());
        }
        let (mut lines, _) = self.lines(out);
        for c in trailing {
            lines.comment(c)?;
        }
        lines.close();
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        self.need_in.pop();
        *self.need_in.last_mut().unwrap_or(&mut self.need_number) = true;
        Ok(())
    }

    /// The lines laid out from where the text written so far ends, and
    /// whether the open line's next ply needs its number.
    fn lines<'o>(&'o mut self, out: &'o mut String) -> (Lines<'o>, &'o mut bool) {
        let need = self.need_in.last_mut().unwrap_or(&mut self.need_number);
        (
            Lines {
                out,
                warnings: &mut self.warnings,
                col: self.col,
                glue: self.glue,
                glyphs_as_nags: self.glyphs_as_nags,
                width: self.width,
            },
            need,
        )
    }

    /// Ends the game: the main line's trailing comments and the result
    /// after the movetext, and the head (`game`'s preamble and the tags
    /// `tags` gives, asked for only then) before it, unless it was written
    /// first: to `head` ([`crate::codec::RunWriter::end`]). The warnings
    /// of the whole game, in the order of its text.
    pub fn end<'t>(
        mut self,
        game: &Game,
        tags: impl FnOnce() -> Cow<'t, [Tag]>,
        dialect: &Dialect,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if !self.need_in.is_empty() {
            return Err(crate::codec::left_open());
        }
        let (mut lines, _) = self.lines(out);
        for c in &game.moves.trailing {
            lines.comment(c)?;
        }
        lines.token(game.result_in(dialect.results).token());
        lines.out.push('\n');
        let mut warnings = match self.head.take() {
            Some(said) => said,
            None => {
                let mut said = Vec::new();
                write_head(game, &tags(), head, &mut said)?;
                said
            }
        };
        warnings.append(&mut self.warnings);
        if let Some(r) = game.foreign_result() {
            warnings.push(
                Problem::whole(format!(
                    "result {} is not a {} result: `*` ends the movetext (a Result tag is kept \
                     as written)",
                    crate::error::quote(&r),
                    game.family().name()
                ))
                .of_kind("result-not-held"),
            );
        }
        Ok(warnings)
    }
}

/// Writes a game's head: its preamble comments and `tags`.
fn write_head(
    game: &Game,
    tags: &[Tag],
    out: &mut String,
    warnings: &mut Vec<Problem>,
) -> Result<(), Problem> {
    for c in &game.preamble {
        match c.kind {
            CommentKind::Brace => {
                let text = brace_text(&c.text, warnings)?;
                out.extend(["{", &*text, "}\n"]);
            }
            CommentKind::Line => {
                let text = one_line(&c.text, || "a `;` comment".into(), warnings);
                out.extend([";", &*text, "\n"]);
            }
            CommentKind::Escape => {
                let text = one_line(&c.text, || "a `%` line".into(), warnings);
                out.extend(["%", &*text, "\n"]);
            }
        }
    }
    if !game.preamble.is_empty() {
        out.push('\n');
    }
    write_tags(tags, out, warnings);
    Ok(())
}

/// A text that must stay on its line (a tag's value, a `;` or `%` comment):
/// its line breaks are written as spaces, with a warning naming `what`.
fn one_line<'t>(
    text: &'t str,
    what: impl FnOnce() -> String,
    warnings: &mut Vec<Problem>,
) -> Cow<'t, str> {
    if memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    warnings.push(
        Problem::whole(format!(
            "{} holds line breaks, which its line cannot: written as spaces",
            what()
        ))
        .of_kind("line-breaks"),
    );
    Cow::Owned(
        text.split(['\n', '\r'])
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The text of a comment as it can stand between braces. A `}` would end
/// it early: an error. A line inside it that starts like a tag (`[Name "`)
/// would end the game when it is read back (the scanner ends a comment left
/// open there, [`scan::tag_head`]): the blanks and line breaks before such
/// a line are written as one space, with a warning.
fn brace_text<'t>(text: &'t str, warnings: &mut Vec<Problem>) -> Result<Cow<'t, str>, Problem> {
    if text.contains('}') {
        return Err(Problem::whole(format!(
            "comment {} holds a `}}` and cannot be written between braces",
            crate::error::quote(text)
        )));
    }
    let b = text.as_bytes();
    let mut joined: Option<String> = None;
    // Copied into `joined` up to here.
    let mut from = 0;
    let mut i = 0;
    while let Some(j) = memchr::memchr2(b'\n', b'\r', &b[i..]) {
        let line_break = i + j;
        i = line_break;
        while i < b.len() && matches!(b[i], b'\n' | b'\r') {
            i += 1;
        }
        if scan::tag_head(b, i) {
            let s = joined.get_or_insert_with(|| String::with_capacity(text.len()));
            if s.is_empty() {
                let line: String = text[i..]
                    .trim_start()
                    .chars()
                    .take_while(|&c| c != '\n' && c != '\r')
                    .take(24)
                    .collect();
                warnings.push(
                    Problem::whole(format!(
                        "a comment holds a line that starts like a tag ({}), which would \
                         end the game when read back: its line break is written as a space",
                        crate::error::quote(&line)
                    ))
                    .of_kind("comment-line-joined"),
                );
            }
            // The whole run of blanks and line breaks before the tag's
            // line: a break left before it, with blanks alone after it,
            // would start the line again.
            let mut start = line_break;
            while start > from && matches!(b[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
                start -= 1;
            }
            s.push_str(&text[from..start]);
            s.push(' ');
            from = i;
        }
    }
    Ok(match joined {
        Some(mut s) => {
            s.push_str(&text[from..]);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(text),
    })
}

/// How the plies of a game are numbered and broken into lines.
#[derive(Clone, Copy)]
struct Numbers {
    first: Side,
    numbering: Numbering,
    /// A move pair a line (on the main line).
    pairs: bool,
}

/// Writes a line: its plies, then its trailing comments.
fn write_line<F>(
    line: &Line,
    numbers: Numbers,
    lines: &mut Lines<'_>,
    spell: &mut F,
    buf: &mut String,
) -> Result<(), Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let mut need_number = true;
    write_plies(
        &line.plies,
        &mut need_number,
        numbers,
        false,
        lines,
        spell,
        buf,
    )?;
    for c in &line.trailing {
        lines.comment(c)?;
    }
    Ok(())
}

/// Writes plies of a line (`main`: the main line); `need_number` says
/// the next ply is written with its number, and is left so for the next.
fn write_plies<F>(
    plies: &[Ply],
    need_number: &mut bool,
    numbers: Numbers,
    main: bool,
    lines: &mut Lines<'_>,
    spell: &mut F,
    buf: &mut String,
) -> Result<(), Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let first = numbers.first;
    let breaks = main && numbers.pairs;
    let mut need = *need_number;
    for ply in plies {
        if breaks && ply.side == first {
            lines.break_line();
        }
        for c in &ply.before {
            lines.comment(c)?;
            need = true;
        }
        // A move number stays on the line of its move.
        buf.clear();
        match numbers.numbering {
            Numbering::Pair if ply.side == first => {
                push_number(buf, ply.number);
                buf.push_str(". ");
            }
            Numbering::Pair if need => {
                push_number(buf, ply.number);
                buf.push_str("... ");
            }
            Numbering::Pair => {}
            Numbering::Ply { mark } => {
                push_number(buf, ply.number);
                buf.push(char::from(mark));
                buf.push(' ');
            }
        }
        need = false;
        spell(ply, buf)?;
        let glyph_as_nag = match &ply.glyph {
            Some(g) if lines.glyphs_as_nags => glyph_nag(g),
            _ => None,
        };
        if let (Some(g), None) = (&ply.glyph, glyph_as_nag) {
            buf.push_str(g);
        }
        lines.token(buf);
        for &nag in glyph_as_nag.iter().chain(&ply.nags) {
            buf.clear();
            buf.push('$');
            push_number(buf, nag);
            lines.token(buf);
        }
        for c in &ply.after {
            lines.comment(c)?;
            need = true;
        }
        for var in &ply.variations {
            lines.open();
            write_line(var, numbers, lines, spell, buf)?;
            lines.close();
            need = true;
        }
    }
    *need_number = need;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines over a string, at column `col` (glued or not), as a paragraph.
    fn lines<'o>(
        out: &'o mut String,
        warnings: &'o mut Vec<Problem>,
        col: usize,
        glue: bool,
    ) -> Lines<'o> {
        Lines {
            out,
            warnings,
            col,
            glue,
            glyphs_as_nags: false,
            width: WIDTH,
        }
    }

    proptest! {
        /// A comment placed as its parts ([`Lines::wrapped`]) is laid out
        /// as the one token they make ([`Lines::token`]): the same text and
        /// the same column after, for any text (line breaks, any script).
        #[test]
        fn a_comment_is_placed_as_the_token_it_makes(
            body in "[a-z é—♞中\n]{0,120}",
            col in 0usize..100,
            glue: bool,
            kind in 0usize..2,
        ) {
            let (open, close) = [("{", "}"), (";", "")][kind];
            let (mut whole, mut parts) = (String::new(), String::new());
            let (mut w1, mut w2) = (Vec::new(), Vec::new());
            let mut a = lines(&mut whole, &mut w1, col, glue);
            a.token(&format!("{open}{body}{close}"));
            let col_a = a.col;
            let mut b = lines(&mut parts, &mut w2, col, glue);
            b.wrapped(open, &body, close);
            let col_b = b.col;
            prop_assert_eq!(col_a, col_b);
            if kind == 0 {
                let (mut read, mut w3) = (String::new(), Vec::new());
                let mut c = lines(&mut read, &mut w3, col, glue);
                c.comment(&Comment::brace(body.as_str())).expect("no `}` in it");
                prop_assert_eq!(c.col, col_a);
                prop_assert_eq!(&read, &whole);
            }
            prop_assert_eq!(whole, parts);
        }
    }
}
