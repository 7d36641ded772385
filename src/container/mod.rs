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
pub mod kept;
pub mod notated;
mod parens;
pub mod repair;
pub mod scan;
mod tags;
mod walk;
mod writer;

use pest::iterators::{Pair, Pairs};
use pest::RuleType;

use crate::codec::{line_col, too_deep, Lines, Parsed, Piece, ReadOptions};
use crate::error::Problem;
use crate::family::dialect::Dialect;
use crate::family::{Move, Setup, Variant};
use crate::ir::{is_plain, Comment, CommentKind, Game, Ply, Side, Tag, MAX_VARIATION_DEPTH};
use fast::Lexing;
use parens::{open_at_depth, unclosed};
pub(crate) use parens::{parens, Paren};
use tags::{lone_bracket, read_tag};
use walk::{assemble, comment, run_bytes, Flushed};
pub use walk::{BARE_NUMBER, NAG_SYMBOLS, RUN_BYTES};
pub use writer::{write, write_tags, Movetext, Style, SEVEN_TAG_ROSTER};

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
    /// A line end inside a tag's value (`[Event "Veteranen` then
    /// `Cup"]`): read as a blank.
    Wrapped,
}

/// Maps a notation's `Rule` enum onto the container's [`Kind`]s.
pub trait ContainerRule: RuleType + 'static {
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
                    $rule::tag_wrapped => Kind::Repair(Repair::Wrapped),
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
    /// (`None` where the moves are not replayed): the family's typed
    /// position (chess: [`crate::family::chess::Fen::Board`]), never its
    /// text, which each run would read again.
    fn start_position(&self) -> Option<Setup>;

    /// Whether the game's head as the tags give it (its tags, preamble,
    /// setup and board) is the head the record's end gives, so that the
    /// stream hands it on before the first run ([`Piece::Head`]); false
    /// (the default) where the moves may still change it (a draughts
    /// board no tag names).
    fn head_settled(&self) -> bool {
        false
    }

    /// Called after the first run ([`Runs::run`]) where the head was not
    /// settled by the tags ([`Runs::head_settled`]): whether that run
    /// settled it (a draughts board no tag names, inferred from a record
    /// whose one run is its whole main line), having put in `head` what
    /// it told (the board), so that the head is handed on before the run
    /// ([`Piece::Head`]). False (the default): the record's end gives it.
    fn settle_head(&mut self, head: &mut Game) -> bool {
        let _ = head;
        false
    }

    /// Told that the movetext was read to its end, before its last runs
    /// ([`Runs::run`]) are made: where no run came before, the one that
    /// comes is the whole main line, with its variations. Does nothing by
    /// default.
    fn movetext_read(&mut self) {}

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
        // A custom error is one of pest's limits (the grammars raise
        // none): its guard against running out of stack, which only
        // variations nesting without bound reach. pest stops where its
        // stack ran out, far past kifu's limit: a record nested past that
        // limit fails as too deep, at the `(` that opens the first level
        // past it, as the walker does. Told by the record, not by pest's
        // words.
        ErrorVariant::CustomError { message } => {
            match open_at_depth(text, MAX_VARIATION_DEPTH + 1) {
                Some(at) => return too_deep(line_col(text, at)),
                None => message.clone(),
            }
        }
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
    Problem::at(pos, format!("{expected}, found {found}")).of_kind(crate::error::Kind::Syntax)
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
    /// A comment: how it was written, its text, its offset, and whether
    /// its text is plain ([`crate::ir::is_plain`], found as it was read).
    Comment(CommentKind, &'i str, usize, bool),
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
    lines: &'i Lines<'i>,
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
        self.lines.at(self.at + offset.min(self.text.len()))
    }

    /// Where the move is, to locate an error once there is one.
    pub fn spot(&self) -> Spot<'i> {
        Spot {
            lines: self.lines,
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
    lines: &'i Lines<'i>,
    at: usize,
}

impl Spot<'_> {
    /// Line and column of the move's first character.
    pub fn pos(self) -> (usize, usize) {
        self.lines.at(self.at)
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
            let comment = |kind, text, at| Token::Comment(kind, text, at, is_plain(text));
            return Some(match pair.as_rule().kind() {
                Kind::Move => Token::Move(text, at, self.move_pairs.then(|| Box::new(pair))),
                Kind::MoveNumber => Token::MoveNumber(text, at),
                Kind::Ellipsis => Token::Ellipsis,
                Kind::Glyph => Token::Glyph(text, at),
                Kind::Nag => Token::Nag(text, at),
                Kind::BraceComment => comment(CommentKind::Brace, inner(pair), at),
                Kind::LineComment => comment(CommentKind::Line, inner(pair), at),
                Kind::EscapeLine => comment(CommentKind::Escape, inner(pair), at),
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
    pub tags: fast::LexedTags<'i>,
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

    /// The warning that says `what`, at the first, with how many times
    /// (its kind given by the caller).
    pub fn said(&self, text: &str, what: &str) -> crate::error::Unkinded {
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
        return read_lexed(&Lines::new(text), lexed, notation);
    }
    // A record whose variations nest past the limit and are never closed
    // fails whatever the grammar says, and pest would try each level to
    // the end of its stack once per `(` (64,000 unclosed `(` took 2.4 s):
    // it is refused here, at the `(` left open or, when that lies past it,
    // the `(` that opens the first level too deep.
    if let Some(deep) = open_at_depth(text, MAX_VARIATION_DEPTH + 1) {
        if let Some((at, what)) = unclosed(text) {
            return Err(if at <= deep {
                Problem::at(line_col(text, at), what).of_kind(crate::error::Kind::Syntax)
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
            Some((at, what)) if at <= offset => {
                Problem::at(line_col(text, at), what).of_kind(crate::error::Kind::Syntax)
            }
            _ => syntax_problem(text, e),
        }
    })?;
    read(&Lines::new(text), pairs, notation)
}

/// Walks the `record` pairs of any container notation into a game.
fn read<'i, N: Notation>(
    lines: &Lines<'i>,
    mut pairs: Pairs<'i, N::Rule>,
    notation: &mut N,
) -> Result<Parsed, Problem> {
    let record = pairs
        .next()
        .ok_or_else(|| Problem::whole("empty record").of_kind(crate::error::Kind::Syntax))?;
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
                warnings.push(lone_bracket(lines, at));
            }
        }
        match pair.as_rule().kind() {
            Kind::Preamble => {
                for part in pair.clone().into_inner() {
                    if part.as_str().starts_with('{') && !part.as_str().ends_with('}') {
                        warnings.push(Problem::at(
                            lines.at(part.as_span().start()),
                            "a `{` before the tags is never closed: the comment ends before the first tag",
                        ).of_kind(crate::error::Kind::TagRepair));
                    }
                }
                let tokens = PestTokens {
                    stack: vec![pair.into_inner()],
                    move_pairs: false,
                };
                for t in tokens {
                    if let Some(c) = comment(lines, None, t, &mut warnings) {
                        preamble.push(c);
                    }
                }
            }
            Kind::Tag => {
                let at = pair.as_span().start();
                let (name, value) = read_tag(lines, pair, lone.take(), &mut warnings);
                tags.push(Tag::new(name, value));
                tag_at.push(at);
            }
            Kind::Repair(Repair::Lone) => {
                // Said with the tag that follows it when that tag lost
                // its `[` (a tag split across lines), else on its own.
                if let Some(at) = lone.replace(pair.as_span().start()) {
                    warnings.push(lone_bracket(lines, at));
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
    read_whole(
        lines, preamble, tags, &tag_at, tokens, 0, notation, warnings,
    )
}

/// The walk of a whole record's tokens (its main line `moves` long, where
/// known) with the visitor that builds the game: the walk that reads a
/// record a run at a time ([`stream_record`]), never cut, whose one run
/// (the main line, with its variations) is put back into the game where
/// the movetext ends; the notation's [`Notation::finish`] then judges the
/// whole game.
#[allow(clippy::too_many_arguments)]
fn read_whole<'i, N: Notation>(
    lines: &Lines<'i>,
    preamble: Vec<Comment>,
    tags: Vec<Tag>,
    tag_at: &[usize],
    tokens: impl Iterator<Item = Token<'i, N::Rule>>,
    moves: usize,
    notation: &mut N,
    warnings: Vec<Problem>,
) -> Result<Parsed, Problem> {
    let mut main = Vec::new();
    let mut build =
        |_: &mut N, _: &mut Game, piece: Flushed<'_>| -> Result<Option<Setup>, Problem> {
            match piece {
                // (The notation judges the whole game: no position is followed.)
                Flushed::Begin | Flushed::Read => Ok(None),
                // (Never cut, the walk hands on one run: the main line.)
                Flushed::Run {
                    plies, depth: 0, ..
                } if main.is_empty() => {
                    main = std::mem::take(plies);
                    Ok(None)
                }
                Flushed::End(line) => {
                    line.plies = std::mem::take(&mut main);
                    Ok(None)
                }
                _ => Err(Problem::whole("a record read whole was cut")
                    .of_kind(crate::error::Kind::Internal)),
            }
        };
    assemble(
        lines,
        preamble,
        tags,
        tag_at,
        tokens,
        moves,
        // (The main line's room, the thread's kept one: [`keep_plies`]
        // gives it back once the game is written.)
        fast::kept_with::<Ply, _>(moves),
        notation,
        warnings,
        &mut build,
        usize::MAX,
    )
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
    // Whether a run was handed on, and the head.
    let (mut ran, mut headed) = (false, false);
    let mut flush = |n: &mut N, head: &mut Game, piece: Flushed<'_>| {
        match piece {
            Flushed::Begin => {
                if n.head_settled() {
                    headed = true;
                    each(Piece::Head(head))?;
                }
                Ok(n.start_position())
            }
            Flushed::Run { plies, from, depth } => {
                let (mut run, after) = n.run(std::mem::take(plies), from, depth)?;
                // A head the first run settled goes before it.
                if !headed && !ran && n.settle_head(head) {
                    headed = true;
                    each(Piece::Head(head))?;
                }
                ran = true;
                each(Piece::Run(&run))?;
                // (The buffer goes back to the line it came from.)
                *plies = std::mem::take(&mut run.moves.plies);
                Ok(after)
            }
            Flushed::Open => each(Piece::Open).map(|()| None),
            Flushed::Close(trailing) => each(Piece::Close(trailing)).map(|()| None),
            Flushed::Read => {
                n.movetext_read();
                Ok(None)
            }
            Flushed::End(_) => Ok(None),
        }
    };
    let Some((lexed_tags, movetext)) = fast::lex_tags(text, lexing, N::DIALECT) else {
        return Ok(None);
    };
    let mut tokens = Pieces {
        movetext,
        piece: std::collections::VecDeque::new(),
        done: false,
        failed: false,
        // (A short record's tokens: no room for a piece of 4,096.)
        room: PIECE_TOKENS.min(text.len() / 4 + 16),
    };
    // The first piece is lexed before the walk: where it is the whole
    // movetext (most records), the main line's plies are reserved at their
    // number, as a record read whole reserves them (grown by doubling, they
    // were copied again and again).
    tokens.lex_piece();
    if tokens.failed {
        // (Given up before any of the walk's work: read whole.)
        return Ok(None);
    }
    let moves = tokens.movetext.main_moves;
    let (tags, tag_at) = tags_lexed(&lexed_tags);
    let mut parsed = assemble(
        &Lines::new(text),
        Vec::new(),
        tags,
        &tag_at,
        &mut tokens,
        moves,
        // (The main line's room, the thread's kept one.)
        fast::kept_with::<Ply, _>(moves),
        notation,
        Vec::new(),
        &mut flush,
        run_bytes(opts),
    );
    if tokens.failed {
        return Ok(None);
    }
    if let Ok(head) = &mut parsed {
        // Every ply was handed on: the main line's room goes back to the
        // thread for the next record.
        keep_plies(&mut head.game.moves.plies);
    }
    parsed.map(Some)
}

/// The most plies a main line's room kept for the next record holds
/// (some 200 KB).
const KEPT_PLIES: usize = 1024;

/// Gives a game's main line's room back to the thread, for the next
/// record read ([`read_record`], [`stream_record`]), once the game is
/// written: its plies are dropped, the room kept (a long line's is let
/// go). A record read whole then fills the memory the one before it
/// filled, where a new line's room, taken from wherever the heap had
/// some, was mostly memory touched for the first time.
pub fn keep_plies(plies: &mut Vec<Ply>) {
    if plies.capacity() <= KEPT_PLIES {
        fast::keep::<Ply, _>(std::mem::take(plies));
    }
}

/// The tokens of a movetext lexed a piece at a time ([`fast::Movetext`]),
/// into the thread's kept buffer ([`fast::kept`]), given back when the
/// record is read.
struct Pieces<'i, R: ContainerRule> {
    movetext: fast::Movetext<'i>,
    /// The piece's tokens not yet taken.
    piece: std::collections::VecDeque<Token<'i, R>>,
    done: bool,
    /// The lexer gave up: the tokens end early, and the record is read
    /// whole.
    failed: bool,
    /// The room made for a piece's tokens.
    room: usize,
}

/// How many tokens a piece of [`Pieces`] holds.
const PIECE_TOKENS: usize = 4096;

impl<R: ContainerRule> Pieces<'_, R> {
    /// Lexes the next piece (the last one's tokens all taken).
    fn lex_piece(&mut self) {
        if self.done || self.failed {
            return;
        }
        // (The last piece's room, its tokens all taken: no tokens moved.)
        let mut piece = Vec::from(std::mem::take(&mut self.piece));
        if piece.capacity() == 0 {
            piece = fast::kept::<Token<'static, R>, _>();
        }
        piece.reserve(self.room);
        match self.movetext.fill::<true, R>(&mut piece, PIECE_TOKENS) {
            Some(done) => self.done = done,
            None => self.failed = true,
        }
        self.piece = piece.into();
    }
}

impl<R: ContainerRule> Drop for Pieces<'_, R> {
    fn drop(&mut self) {
        fast::keep::<Token<'static, R>, _>(std::mem::take(&mut self.piece).into());
    }
}

impl<'i, R: ContainerRule> Iterator for Pieces<'i, R> {
    type Item = Token<'i, R>;

    fn next(&mut self) -> Option<Token<'i, R>> {
        loop {
            if let Some(t) = self.piece.pop_front() {
                return Some(t);
            }
            if self.done || self.failed {
                return None;
            }
            self.lex_piece();
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
    lines: &Lines<'i>,
    lexed: Lexed<'i, N::Rule>,
    notation: &mut N,
) -> Result<Parsed, Problem> {
    let (tags, tag_at) = tags_lexed(&lexed.tags);
    let moves = lexed.main_moves;
    let mut tokens = lexed.tokens;
    let read = read_whole(
        lines,
        Vec::new(),
        tags,
        &tag_at,
        tokens.drain(..),
        moves,
        notation,
        Vec::new(),
    );
    // (The tokens' room back to the thread for the next record.)
    fast::keep::<Token<'static, N::Rule>, _>(tokens);
    read
}
