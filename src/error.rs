//! Errors and warnings.
//!
//! Readers and writers report a [`Problem`] positioned inside one record; the
//! archive pipeline turns it into a [`Diagnostic`] with the file, the line and
//! column in the whole input, and the game's index.

use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;

/// A problem in one record, positioned relative to the record's first byte
/// (line 1, column 1). Line 0 means "the record as a whole".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line inside the record, or 0 when there is no position.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub col: usize,
    /// What is wrong, in words a person can act on.
    pub message: String,
    /// The kind of a warning: a stable name (`dropped-annotations`) that
    /// messages show and group by; empty for a problem of no named kind
    /// (such warnings group by their message).
    pub kind: &'static str,
}

impl Problem {
    /// A problem at a position in the record.
    pub fn at(pos: (usize, usize), message: impl Into<String>) -> Problem {
        Problem {
            line: pos.0,
            col: pos.1,
            message: message.into(),
            kind: "",
        }
    }

    /// A problem with the record as a whole.
    pub fn whole(message: impl Into<String>) -> Problem {
        Problem {
            line: 0,
            col: 0,
            message: message.into(),
            kind: "",
        }
    }

    /// The same problem, of a named kind (its field `kind`).
    pub fn of_kind(mut self, kind: &'static str) -> Problem {
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
    /// The warning's kind ([`Problem::kind`]); empty for none.
    pub kind: &'static str,
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
        let what = match (self.severity, self.kind) {
            (Severity::Error, "") => paint("1;31", "error"),
            (Severity::Error, k) => paint("1;31", &format!("error[{k}]")),
            (Severity::Warning, "") => paint("1;33", "warning"),
            (Severity::Warning, k) => paint("1;33", &format!("warning[{k}]")),
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
    /// `file:line:col: error: game N: message` (`warning[kind]` for a
    /// warning of a named kind), without the position when line is 0 and
    /// without the game when game is 0. Control characters of the input are
    /// escaped (see [`escape_controls`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

/// Text taken from an input or a file name, made safe to print on a
/// terminal: C0 controls (tab and newline included), DEL and C1 controls
/// become `\xNN`; the invisible characters that reorder or hide text (bidi
/// overrides and isolates, zero-width characters, line and paragraph
/// separators, a BOM) become `\u{NNNN}`. Everything else, letters of any
/// script and U+FFFD included, is kept as it is.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    fn hidden(c: char) -> bool {
        matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
    }
    if !text.chars().any(|c| c.is_control() || hidden(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else if hidden(c) {
            out.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
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
        assert!(matches!(escape_controls("café ♞ �"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("a\0b\x1b[31m\tc\u{7f}\u{93}é\u{202e}d\n"),
            "a\\x00b\\x1b[31m\\x09c\\x7f\\x93é\\u{202e}d\\x0a"
        );
    }
}
