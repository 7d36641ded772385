//! Errors and warnings.
//!
//! Readers and writers report a [`Problem`] positioned inside one record; the
//! archive pipeline turns it into a [`Diagnostic`] with the file, the line and
//! column in the whole input, and the game's index.

use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;

/// Declares [`Kind`]: each kind's variant, its stable name and its doc;
/// the kinds of `named` are shown in messages (`warning[latin-1]`), those
/// of `quiet` are not ([`Kind::shown`]).
macro_rules! kinds {
    (
        named { $($(#[doc = $doc:literal])* $variant:ident = $name:literal,)* }
        quiet { $($(#[doc = $qdoc:literal])* $qvariant:ident = $qname:literal,)* }
    ) => {
        /// The kind of a problem: what sort of thing was guessed, mended or
        /// could not be kept, or (for an error) why the game failed. Every
        /// problem has one. Warnings and a few errors show its stable name
        /// (`warning[dropped-annotations]`, [`Kind::shown`]); every
        /// diagnostic groups by it; code decides by the variant, never by a
        /// message's text.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $($(#[doc = $doc])* $variant,)*
            $($(#[doc = $qdoc])* $qvariant,)*
        }

        impl Kind {
            /// Every kind, in the order they are declared: those shown in
            /// messages first.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant,)* $(Kind::$qvariant,)*];

            /// The kind's stable name, as messages show it
            /// (`dropped-annotations`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)*
                    $(Kind::$qvariant => $qname,)*
                }
            }

            /// Whether messages show the kind's name (`warning[latin-1]`,
            /// `error[too-deep]`): every warning's kind, and a few errors'.
            /// The kinds of other errors are not shown (their messages are
            /// as they were before errors had kinds): they group the
            /// errors of a run and are `ReadError.kind` in Python.
            pub const fn shown(self) -> bool {
                match self {
                    $(Kind::$variant => true,)*
                    $(Kind::$qvariant => false,)*
                }
            }

            /// What the kind is, in one sentence: its doc without the
            /// name (the tables of kinds in docs/cli.md).
            pub fn what(self) -> String {
                let doc = match self {
                    $(Kind::$variant => concat!($($doc, " ",)*),)*
                    $(Kind::$qvariant => concat!($($qdoc, " ",)*),)*
                };
                let doc = doc.trim();
                let what = doc
                    .strip_prefix('`')
                    .and_then(|d| d.split_once("`: "))
                    .map_or(doc, |(_, what)| what);
                what.split_whitespace().collect::<Vec<_>>().join(" ")
            }
        }
    };
}

kinds! {
    named {
        /// `latin-1`: a file that is not UTF-8, read as Latin-1.
        Latin1 = "latin-1",
        /// `link`: a link (symbolic link) in a folder, not followed.
        Link = "link",
        /// `dropped-annotations`: annotations the output cannot hold, dropped.
        DroppedAnnotations = "dropped-annotations",
        /// `result-mismatch`: a result tag that the movetext's result contradicts.
        ResultMismatch = "result-mismatch",
        /// `renumbered`: move numbers that did not follow on, renumbered.
        Renumbered = "renumbered",
        /// `field-as-written`: a field kept as the record wrote it.
        FieldAsWritten = "field-as-written",
        /// `arrangement-mismatch`: a board arrangement that differs from the one named.
        ArrangementMismatch = "arrangement-mismatch",
        /// `tag-named-as-field`: a tag spelled as a field of the notation.
        TagNamedAsField = "tag-named-as-field",
        /// `not-replayed`: moves read without being replayed on the board.
        NotReplayed = "not-replayed",
        /// `pawn-capture-without-x`: a pawn capture written without its `x`.
        PawnCaptureWithoutX = "pawn-capture-without-x",
        /// `bare-move-number`: a move number written without its dot.
        BareMoveNumber = "bare-move-number",
        /// `placeholder-result`: a placeholder result (`-`, `?`) read as `*`.
        PlaceholderResult = "placeholder-result",
        /// `spaced-result`: a result written with spaces (`1 - 0`).
        SpacedResult = "spaced-result",
        /// `paren-comment`: a comment in parentheses.
        ParenComment = "paren-comment",
        /// `stray-brace`: a `}` that closes no comment.
        StrayBrace = "stray-brace",
        /// `stray-paren`: a `)` that closes no variation.
        StrayParen = "stray-paren",
        /// `tag-repair`: a damaged tag line, repaired.
        TagRepair = "tag-repair",
        /// `board-assumed`: a board assumed where the record names none.
        BoardAssumed = "board-assumed",
        /// `board-inferred`: a board inferred from the squares the moves use.
        BoardInferred = "board-inferred",
        /// `origin-unknown`: a record whose origin is not known.
        OriginUnknown = "origin-unknown",
        /// `nonstandard-gametype`: a `GameType` tag in a nonstandard form.
        NonstandardGametype = "nonstandard-gametype",
        /// `unknown-tile`: a Coerceo tile the rules do not know.
        UnknownTile = "unknown-tile",
        /// `wrong-tile`: a Coerceo tile named wrongly.
        WrongTile = "wrong-tile",
        /// `turn-order`: a Coerceo record whose turns do not alternate as written.
        TurnOrder = "turn-order",
        /// `capture-mark`: a capture mark on a move that captures nothing, or missing.
        CaptureMark = "capture-mark",
        /// `stray-comments`: comments outside any game.
        StrayComments = "stray-comments",
        /// `other-family`: a game of another family than the output's.
        OtherFamily = "other-family",
        /// `nothing-to-convert`: an input that holds no game.
        NothingToConvert = "nothing-to-convert",
        /// `no-games`: an input in which no game was found.
        NoGames = "no-games",
        /// `other-format`: an input that reads as another format.
        OtherFormat = "other-format",
        /// `short-notation`: a draughts record in Russian short notation.
        ShortNotation = "short-notation",
        /// `line-breaks`: line breaks in a value that the output writes on one line.
        LineBreaks = "line-breaks",
        /// `comment-line-joined`: a comment's line that looks like a tag, joined to the line before.
        CommentLineJoined = "comment-line-joined",
        /// `tag-name`: a tag name the output cannot hold as it is.
        TagName = "tag-name",
        /// `result-not-held`: a result the family does not know.
        ResultNotHeld = "result-not-held",
        /// `first-mover`: a hnefatafl record whose first mover differs from the rules'.
        FirstMover = "first-mover",
        /// `capture-count`: a hnefatafl capture count that differs from the captures made.
        CaptureCount = "capture-count",
        /// `captured-twice`: a hnefatafl piece listed as captured twice.
        CapturedTwice = "captured-twice",
        /// `piece-letter`: a piece letter the notation does not know.
        PieceLetter = "piece-letter",
        /// `otn-escape`: text OpenTafl notation escapes.
        OtnEscape = "otn-escape",
        /// `tag-left-out`: a tag the output leaves out.
        TagLeftOut = "tag-left-out",
        /// `mark-dropped`: a mark the output cannot hold, dropped.
        MarkDropped = "mark-dropped",
        /// `fen-repair`: a damaged FEN, repaired.
        FenRepair = "fen-repair",
        /// `annotation-before-move`: an annotation before the first move, kept as a comment.
        AnnotationBeforeMove = "annotation-before-move",
        /// `move-number`: a move number out of place (a game without tags split at `1.`).
        MoveNumber = "move-number",
        /// `nested-comment`: a comment inside a comment.
        NestedComment = "nested-comment",
        /// `repeated-tag`: a tag given twice.
        RepeatedTag = "repeated-tag",
        /// `setup-in-moves`: a setup written among the moves.
        SetupInMoves = "setup-in-moves",
        /// `rules-unknown`: a game whose rules kifu does not know.
        RulesUnknown = "rules-unknown",
        /// `rules-refused`: a game the rules refuse.
        RulesRefused = "rules-refused",
        /// `unknown-variant`: a variant kifu does not know.
        UnknownVariant = "unknown-variant",
        /// `variant-conflict`: a Variant tag that names another game than the GameType tag (read by the GameType).
        VariantConflict = "variant-conflict",
        /// `capture-unruled`: a capture listed that the rules do not make.
        CaptureUnruled = "capture-unruled",
        /// `capture-unlisted`: a capture the rules make that is not listed.
        CaptureUnlisted = "capture-unlisted",
        /// `capture-turned`: a hnefatafl piece captured that the record's later moves move for the capturing side.
        CaptureTurned = "capture-turned",
        /// `capture-left`: a hnefatafl piece captured that the record's later moves move for its own side.
        CaptureLeft = "capture-left",
        /// `played-on`: a record that plays on after the rules end the game.
        PlayedOn = "played-on",
        /// `timeout-played-on`: a record that plays on after a timeout.
        TimeoutPlayedOn = "timeout-played-on",
        /// `repeated-moves`: a hnefatafl record that writes a run of moves twice in a row.
        RepeatedMoves = "repeated-moves",
        /// `berserk-leg`: a hnefatafl record's berserk legs, left out, inferred.
        BerserkLeg = "berserk-leg",
        /// `other-layout`: a hnefatafl record played from another start position its game type has had.
        OtherLayout = "other-layout",
        /// `other-rules`: a hnefatafl record played by the later rules its game type has, where its first refuse it.
        OtherRules = "other-rules",
        /// `king-capture-completed`: a king's capture completed by the rules.
        KingCaptureCompleted = "king-capture-completed",
        /// `lower-case-castling`: castling written in lower case.
        LowerCaseCastling = "lower-case-castling",
        /// `check-mark`: a check or mate sign on a move that gives none.
        CheckMark = "check-mark",
        /// `localized-pieces`: piece letters of another language.
        LocalizedPieces = "localized-pieces",
        /// `html-break`: HTML outside comments (`<br />`, `<p>`, `&nbsp;`),
        /// read as blanks.
        HtmlBreak = "html-break",
        /// `escape-as-text`: a container's escape sequence written as text.
        EscapeAsText = "escape-as-text",
        /// `unicode-dash`: a Unicode dash read as a hyphen.
        UnicodeDash = "unicode-dash",
        /// `wrapper-line`: a line that wraps the record (mail or forum quoting).
        WrapperLine = "wrapper-line",
        /// `variation-as-text`: a variation that cannot be played, kept as text.
        VariationAsText = "variation-as-text",
        /// `xml-cannot-hold`: what XML cannot hold.
        XmlCannotHold = "xml-cannot-hold",
        /// `csv-cannot-hold`: what the csv tables cannot hold.
        CsvCannotHold = "csv-cannot-hold",
        /// `no-font`: tenjiku's pieces drawn with their abbreviations: no font
        /// with their kanji was found.
        NoFont = "no-font",
        /// `variant-unplayed`: a game of a variant kifu does not play (an
        /// error: crazyhouse's drops, antichess, aagenielsen.dk's games that
        /// are not tafl).
        VariantUnplayed = "variant-unplayed",
        /// `too-deep`: variations nested deeper than kifu reads (an error).
        TooDeep = "too-deep",
    }
    quiet {
        /// `syntax`: text the notation does not read (`expected a move, found
        /// ...`), an empty record.
        Syntax = "syntax",
        /// `illegal-move`: a move the rules refuse: illegal, ambiguous, or one
        /// that no piece can make.
        IllegalMove = "illegal-move",
        /// `off-board`: a square, field or tile that is not on the board.
        OffBoard = "off-board",
        /// `number-too-large`: a number too large to read (a move number, a
        /// NAG, a tile's number).
        NumberTooLarge = "number-too-large",
        /// `tag-value`: a tag that kifu cannot read or play by (a FEN, rules,
        /// a board, a game type, a result), or no board to read the game on.
        TagValue = "tag-value",
        /// `unread-notation`: a record in a notation kifu knows but cannot
        /// read (Russian short notation whose moves the rules cannot tell).
        UnreadNotation = "unread-notation",
        /// `wrong-family`: a game of another family than the output's or the
        /// picture's.
        WrongFamily = "wrong-family",
        /// `cannot-write`: a game the output cannot hold (a comment with a `}`
        /// between braces, what a scoresheet has no place for, a game without
        /// the rules OpenTafl notation names).
        CannotWrite = "cannot-write",
        /// `cannot-draw`: a picture kifu cannot draw (no start position, moves
        /// not replayed, a ply past the game's end, a board it does not draw).
        CannotDraw = "cannot-draw",
        /// `document`: a JSON, XML or csv document that kifu cannot read as
        /// games.
        Document = "document",
        /// `record-too-large`: a record over the limit of one record, or too
        /// large for memory: skipped.
        RecordTooLarge = "record-too-large",
        /// `damaged-input`: an input cut short or damaged (compressed data, a
        /// document that ends early): the games before the damage were read.
        DamagedInput = "damaged-input",
        /// `output-failed`: an output that could not be written (its folder,
        /// its file, the space a large game spills to): its input fails alone.
        OutputFailed = "output-failed",
        /// `input-refused`: an input that the search for inputs refuses (an
        /// archive's member, a damaged archive).
        InputRefused = "input-refused",
        /// `not-streamed`: a game that cannot be read or written piece by
        /// piece, taken again whole (never shown: the game is taken whole).
        NotStreamed = "not-streamed",
        /// `internal`: a fault of kifu itself (a writer that lost its place in
        /// the game, a failure caught): please report it.
        Internal = "internal",
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A problem in one record, positioned relative to the record's first byte
/// (line 1, column 1). Line 0 means "the record as a whole". Every problem
/// has a [`Kind`]: [`Problem::at`] and [`Problem::whole`] give an
/// [`Unkinded`], which [`Unkinded::of_kind`] makes a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line inside the record, or 0 when there is no position.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub col: usize,
    /// What is wrong, in words a person can act on.
    pub message: String,
    /// The problem's kind: code decides by it, diagnostics group by it,
    /// and messages show it where [`Kind::shown`].
    pub kind: Kind,
}

/// A problem's place and words, before its kind: not yet a [`Problem`]
/// ([`Unkinded::of_kind`] makes one), so that no problem is made without a
/// kind.
///
/// ```
/// use kifu::error::{Kind, Problem};
/// let p: Problem = Problem::whole("expected a move").of_kind(Kind::Syntax);
/// assert_eq!(p.kind, Kind::Syntax);
/// ```
///
/// A problem without its kind does not compile:
///
/// ```compile_fail
/// let p: kifu::error::Problem = kifu::error::Problem::whole("expected a move");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "a problem needs its kind: `.of_kind(Kind::...)`"]
pub struct Unkinded {
    line: usize,
    col: usize,
    message: String,
}

impl Unkinded {
    /// The problem, of the kind `kind`.
    pub fn of_kind(self, kind: Kind) -> Problem {
        Problem {
            line: self.line,
            col: self.col,
            message: self.message,
            kind,
        }
    }
}

impl Problem {
    /// A problem at a position in the record, once given its kind
    /// ([`Unkinded::of_kind`]).
    pub fn at(pos: (usize, usize), message: impl Into<String>) -> Unkinded {
        Unkinded {
            line: pos.0,
            col: pos.1,
            message: message.into(),
        }
    }

    /// A problem with the record as a whole, once given its kind
    /// ([`Unkinded::of_kind`]).
    pub fn whole(message: impl Into<String>) -> Unkinded {
        Problem::at((0, 0), message)
    }

    /// The token a problem was found at in the record `text`: from its
    /// place to the next blank (`gf4`, `N@f3`), for a reader that tells a
    /// notation it does not read by the token it failed at. `None` for a
    /// problem of no place, or a place past the text.
    pub fn token_in(&self, text: &str) -> Option<String> {
        let line = text.lines().nth(self.line.checked_sub(1)?)?;
        Some(
            line.chars()
                .skip(self.col.checked_sub(1)?)
                .take_while(|c| !c.is_whitespace())
                .collect(),
        )
    }

    /// The same problem, at a position in the record (`(0, 0)`: the
    /// record as a whole).
    pub fn placed(mut self, pos: (usize, usize)) -> Problem {
        (self.line, self.col) = pos;
        self
    }

    /// The same problem, of another kind.
    pub fn of_kind(mut self, kind: Kind) -> Problem {
        self.kind = kind;
        self
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The game was not converted.
    Error,
    /// The game was converted, but something could not be kept or was guessed.
    Warning,
}

/// A problem located in an input: file, line and column of the whole input,
/// and the game's index (1-based) in that input. Line 0 means no position in
/// the input, game 0 no game (text between games, a whole input, a summary).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The input's name (`-` for standard input).
    pub file: String,
    /// 1-based line in the input.
    pub line: usize,
    /// 1-based column in the input.
    pub col: usize,
    /// 1-based index of the game in the input, or 0 when it belongs to none.
    pub game: usize,
    /// What is wrong.
    pub message: String,
    /// The problem's kind ([`Problem::kind`]).
    pub kind: Kind,
}

impl Diagnostic {
    /// The diagnostic as a line, coloured for a terminal when `color`:
    /// the location bold, `error` red, `warning` yellow.
    pub fn render(&self, color: bool) -> String {
        let paint = |code: &str, text: &str| {
            if color {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text.to_string()
            }
        };
        let mut place = escape_controls(&self.file).into_owned();
        if self.line > 0 {
            place.push_str(&format!(":{}:{}", self.line, self.col));
        }
        let (word, code) = match self.severity {
            Severity::Error => ("error", "1;31"),
            Severity::Warning => ("warning", "1;33"),
        };
        let what = match self.kind.shown() {
            true => paint(code, &format!("{word}[{}]", self.kind)),
            false => paint(code, word),
        };
        let game = match self.game {
            0 => String::new(),
            n => format!("game {n}: "),
        };
        format!(
            "{}: {what}: {game}{}",
            paint("1", &place),
            escape_controls(&self.message)
        )
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: game N: message` (`warning[kind]`,
    /// `error[kind]` for a kind [`Kind::shown`]), without the position when line is 0 and
    /// without the game when game is 0. Control characters of the input are
    /// escaped (see [`escape_controls`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

/// The invisible characters that reorder or hide text: bidi overrides and
/// isolates, zero-width characters, line and paragraph separators, a BOM.
fn hidden(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Writes a character as messages show it, escaped where it cannot be
/// shown as it is: tab, line feed and carriage return as `\t`, `\n`,
/// `\r`; another ASCII control (DEL included) as `\xNN`; a C1 control or
/// an invisible character ([`hidden`]) as `\u{NN}`. Every other character,
/// letters of any script and U+FFFD included, as it is. A backslash is
/// `\\` where `backslash` says so ([`quote`]).
fn show_char(c: char, backslash: bool, out: &mut String) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\\' if backslash => out.push_str("\\\\"),
        c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
        c if c.is_control() || hidden(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        c => out.push(c),
    }
}

/// Text of an input quoted for a message, between backticks, so that
/// different texts never look the same: a backslash is `\\`, controls and
/// invisible characters are escaped (`\r`, `\x1b`, `\u{202e}`: see
/// `show_char`), everything else is as it is. A carriage return shows as
/// `\r`, the two characters `\r` as `\\r`. Every message that quotes what
/// it found quotes it so.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('`');
    for c in text.chars() {
        show_char(c, true, &mut out);
    }
    out.push('`');
    out
}

/// Bytes of an input quoted as [`quote`] quotes text, a byte that is not
/// UTF-8 as `\xNN` (`\x80` to `\xff`: the escape of an ASCII control is
/// below `\x80`, a C1 control's is `\u{..}`), at most `max` characters
/// of it, then `...` after the closing backtick.
pub fn quote_bytes(bytes: &[u8], max: usize) -> String {
    let mut out = String::from("`");
    let mut count = 0;
    for chunk in bytes.utf8_chunks() {
        let invalid = chunk.invalid().iter().map(|&b| Err(b));
        for piece in chunk.valid().chars().map(Ok).chain(invalid) {
            if count == max {
                out.push_str("`...");
                return out;
            }
            count += 1;
            match piece {
                Ok(c) => show_char(c, true, &mut out),
                Err(b) => out.push_str(&format!("\\x{b:02x}")),
            }
        }
    }
    out.push('`');
    out
}

/// Text taken from an input or a file name, made safe to print on a
/// terminal: controls and invisible characters escaped as [`quote`]
/// escapes them (a backslash is kept as it is). What a message quotes is
/// [`quote`]d where it is found; this is the last guard, on the whole line.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || hidden(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        show_char(c, false, &mut out);
    }
    Cow::Owned(out)
}

/// A failure that stops a whole run or input (as opposed to one game).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {source}", escape_controls(&.path.to_string_lossy()))]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The command line asks for something kifu cannot do.
    #[error("{}", escape_controls(.0))]
    Usage(String),
    /// A game failed and `--strict` is on.
    #[error("{0}")]
    Strict(Diagnostic),
}

impl Error {
    /// An I/O error on a path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_letters_kept() {
        assert!(matches!(escape_controls("café ♞ � a\\r"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("a\0b\x1b[31m\tc\u{7f}\u{93}é\u{202e}d\n\r"),
            "a\\x00b\\x1b[31m\\tc\\x7f\\u{93}é\\u{202e}d\\n\\r"
        );
    }

    #[test]
    fn a_carriage_return_and_a_backslash_r_are_quoted_apart() {
        assert_eq!(quote("a\rb"), "`a\\rb`");
        assert_eq!(quote("a\\rb"), "`a\\\\rb`");
        assert_eq!(quote("漢é ok"), "`漢é ok`");
        assert_eq!(quote_bytes(b"e\xff\xc2\x93\r", 10), "`e\\xff\\u{93}\\r`");
        assert_eq!(quote_bytes(b"abcdef", 3), "`abc`...");
    }

    proptest::proptest! {
        #[test]
        fn different_bytes_never_quote_the_same(a: Vec<u8>, b: Vec<u8>) {
            let (qa, qb) = (quote_bytes(&a, usize::MAX), quote_bytes(&b, usize::MAX));
            proptest::prop_assert_eq!(a == b, qa == qb, "{} {}", qa, qb);
            proptest::prop_assert!(!qa.chars().any(|c| c.is_control() || hidden(c)), "{}", qa);
        }

        #[test]
        fn different_texts_never_quote_the_same(a: String, b: String) {
            let (qa, qb) = (quote(&a), quote(&b));
            proptest::prop_assert_eq!(a == b, qa == qb, "{} {}", qa, qb);
            proptest::prop_assert!(!qa.chars().any(|c| c.is_control() || hidden(c)), "{}", qa);
            // Bytes that are text quote as the text does.
            proptest::prop_assert_eq!(quote_bytes(a.as_bytes(), usize::MAX), qa);
        }

        #[test]
        fn near_texts_never_quote_the_same(
            a in proptest::collection::vec(proptest::sample::select(vec![
                b'\\', b'r', b'n', b'x', b'u', b'{', b'}', b'0', b'd', b'\r', b'\n', 0x80, 0xc2, 0x93,
            ]), 0..8),
            b in proptest::collection::vec(proptest::sample::select(vec![
                b'\\', b'r', b'n', b'x', b'u', b'{', b'}', b'0', b'd', b'\r', b'\n', 0x80, 0xc2, 0x93,
            ]), 0..8),
        ) {
            let (qa, qb) = (quote_bytes(&a, usize::MAX), quote_bytes(&b, usize::MAX));
            proptest::prop_assert_eq!(a == b, qa == qb, "{} {}", qa, qb);
        }
    }
}
