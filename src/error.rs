//! Errors and warnings.
//!
//! Readers and writers report a [`Problem`] positioned inside one record; the
//! archive pipeline turns it into a [`Diagnostic`] with the file, the line and
//! column in the whole input, and the game's index.

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
}

impl Problem {
    /// A problem at a position in the record.
    pub fn at(pos: (usize, usize), message: impl Into<String>) -> Problem {
        Problem {
            line: pos.0,
            col: pos.1,
            message: message.into(),
        }
    }

    /// A problem with the record as a whole.
    pub fn whole(message: impl Into<String>) -> Problem {
        Problem {
            line: 0,
            col: 0,
            message: message.into(),
        }
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The game was not converted.
    Error,
    /// The game was converted, but something could not be kept or was guessed.
    Warning,
}

/// A problem located in an input: file, line and column of the whole input,
/// and the game's index (1-based) in that input.
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
    /// 1-based index of the game in the input.
    pub game: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {what}: game {}: {}",
            self.file, self.line, self.col, self.game, self.message
        )
    }
}

/// A failure that stops a whole run or input (as opposed to one game).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The command line asks for something kifu cannot do.
    #[error("{0}")]
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
