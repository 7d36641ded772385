//! Options that belong to formats.
//!
//! Each format declares its own options in its registry entry
//! ([`crate::format::Format::options`]): a name, where it acts (reading,
//! writing or both), its values, its default and one line of help. What the
//! user gives (`--from-opt NAME=VALUE`, `--to-opt NAME=VALUE`, or a
//! shorthand flag) is checked against the formats of the run and parsed by
//! each format into its own typed options ([`FormatOptions`]) once, before
//! any input is opened; readers and writers then get them typed
//! ([`Settings::get`]), never as strings. Two formats may declare the same
//! name: each parses its own.
//!
//! A format that needs options writes one type and one list:
//!
//! ```
//! use kifu::options::{FormatOption, FormatOptions, Options, Sides, Values};
//!
//! /// The options of a notation written in two layouts.
//! #[derive(Debug, Clone, Copy, Default, PartialEq)]
//! struct Layout {
//!     columns: bool,
//! }
//!
//! impl FormatOptions for Layout {
//!     const LIST: &'static [FormatOption] = &[FormatOption {
//!         name: "layout",
//!         sides: Sides::Write,
//!         values: Values::OneOf(&["text", "columns"]),
//!         default: "text",
//!         help: "how the moves are laid out",
//!     }];
//!
//!     fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
//!         match name {
//!             "layout" => self.columns = value == "columns",
//!             _ => return Err(kifu::options::undeclared(name)),
//!         }
//!         Ok(())
//!     }
//! }
//!
//! // In the registry entry: `options: Options::of::<Layout>()`.
//! let options = Options::of::<Layout>();
//! let settings = options.build(&[("layout", "columns")]).unwrap();
//! assert_eq!(settings.get::<Layout>(), Some(&Layout { columns: true }));
//! ```

pub mod run;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::error::Error;

/// The side of a conversion: reading the input or writing the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Reading the input.
    Read,
    /// Writing the output.
    Write,
}

impl Side {
    /// The flag that sets an option on this side.
    pub fn flag(self) -> &'static str {
        match self {
            Side::Read => "--from-opt",
            Side::Write => "--to-opt",
        }
    }

    /// How messages say it: "reading", "writing".
    pub fn doing(self) -> &'static str {
        match self {
            Side::Read => "reading",
            Side::Write => "writing",
        }
    }
}

/// Where an option acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// When the format is read.
    Read,
    /// When the format is written.
    Write,
    /// Both.
    Both,
}

impl Sides {
    /// Whether it covers a side.
    pub fn has(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Sides::Both, _) | (Sides::Read, Side::Read) | (Sides::Write, Side::Write)
        )
    }

    fn name(self) -> &'static str {
        match self {
            Sides::Read => "read",
            Sides::Write => "write",
            Sides::Both => "read, write",
        }
    }
}

/// What values an option takes.
#[derive(Debug, Clone, Copy)]
pub enum Values {
    /// One of these words (checked before the format parses it; any case).
    OneOf(&'static [&'static str]),
    /// A value the format parses, described for help.
    Kind(&'static str),
}

/// One option a format declares.
#[derive(Debug)]
pub struct FormatOption {
    /// Its name, as in `--to-opt NAME=VALUE`.
    pub name: &'static str,
    /// Where it acts.
    pub sides: Sides,
    /// What values it takes.
    pub values: Values,
    /// What applies when it is not given.
    pub default: &'static str,
    /// One line for help: what it sets.
    pub help: &'static str,
}

impl FormatOption {
    /// One line that says it all, for `kifu formats` and `--help`:
    /// `pieces (read, write): the piece letters ...: en, sr, ... (default en)`.
    pub fn describe(&self) -> String {
        let values = match self.values {
            Values::OneOf(words) => words.join(", "),
            Values::Kind(kind) => kind.to_string(),
        };
        format!(
            "{} ({}): {}: {values} (default {})",
            self.name,
            self.sides.name(),
            self.help,
            self.default
        )
    }
}

/// A format's own options as one type: the reader and writer get it from
/// [`Settings::get`]. Its `Default` is what applies when none is given.
pub trait FormatOptions: Default + Send + Sync + 'static {
    /// The options the format declares, in the order help lists them.
    const LIST: &'static [FormatOption];

    /// Sets one option of [`FormatOptions::LIST`] from its value as written
    /// (a word of a [`Values::OneOf`] comes in the list's spelling); an
    /// error says what is wrong with the value.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String>;
}

/// The error of [`FormatOptions::set`] for a name the format does not
/// declare (never reached through [`run::resolve`], which checks names first).
pub fn undeclared(name: &str) -> String {
    format!("no option `{name}`")
}

/// A format's typed options for one side of a run, as its reader or writer
/// receives them; empty where none were built (the format's defaults).
#[derive(Clone, Default)]
pub struct Settings(Option<Arc<dyn Any + Send + Sync>>);

impl Settings {
    /// The format's options, when they are of type `T` (the type its
    /// registry entry declares); `None` when none were built.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_deref().and_then(|a| a.downcast_ref())
    }
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Settings(..)"
        } else {
            "Settings(none)"
        })
    }
}

/// What a registry entry says about options: the list it declares and how
/// its typed options are built.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The options, in the order help lists them.
    pub list: &'static [FormatOption],
    build: Build,
}

/// Builds typed options from `(name, value)` pairs; an error comes with the
/// index of the pair it is about.
type Build = fn(&[(&str, &str)]) -> Result<Settings, (usize, String)>;

fn no_settings(_: &[(&str, &str)]) -> Result<Settings, (usize, String)> {
    Ok(Settings::default())
}

fn typed<T: FormatOptions>(given: &[(&str, &str)]) -> Result<Settings, (usize, String)> {
    let mut options = T::default();
    for (i, (name, value)) in given.iter().enumerate() {
        options.set(name, value).map_err(|e| (i, e))?;
    }
    Ok(Settings(Some(Arc::new(options))))
}

impl Options {
    /// A format without options.
    pub const NONE: Options = Options {
        list: &[],
        build: no_settings,
    };

    /// The options of type `T`.
    pub const fn of<T: FormatOptions>() -> Options {
        Options {
            list: T::LIST,
            build: typed::<T>,
        }
    }

    /// The option of this name that acts on `side`, if it is declared.
    pub fn declared(&self, name: &str, side: Side) -> Option<&'static FormatOption> {
        self.list
            .iter()
            .find(|o| o.name == name && o.sides.has(side))
    }

    /// The typed options from `(name, value)` pairs, in order (a later
    /// value of a name wins); the names are the format's own. An error
    /// comes with the index of the pair it is about.
    pub fn build(&self, given: &[(&str, &str)]) -> Result<Settings, (usize, String)> {
        (self.build)(given)
    }
}

/// One option as the user gave it.
#[derive(Debug, Clone)]
pub struct Given {
    /// The sides it is for: one for `--from-opt` and `--to-opt`; a
    /// shorthand flag may set both.
    pub sides: Sides,
    /// The option's name.
    pub name: String,
    /// Its value as written.
    pub value: String,
    /// How the user wrote it, for messages (`--to-opt layout=columns`,
    /// `--pieces de`).
    pub shown: String,
}

impl Given {
    /// An option given as `NAME=VALUE` with the flag of `side`.
    pub fn parse(side: Side, text: &str) -> Result<Given, Error> {
        let shown = format!("{} {text}", side.flag());
        match text.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => Ok(Given {
                sides: match side {
                    Side::Read => Sides::Read,
                    Side::Write => Sides::Write,
                },
                name: name.trim().to_string(),
                value: value.to_string(),
                shown,
            }),
            _ => Err(Error::Usage(format!(
                "{shown}: write NAME=VALUE (`kifu formats` lists each format's options)"
            ))),
        }
    }

    /// The option `name` set to `value` by a shorthand `flag` (`--pieces`).
    pub fn shorthand(flag: &str, sides: Sides, name: &str, value: &str) -> Given {
        Given {
            sides,
            name: name.to_string(),
            value: value.to_string(),
            shown: format!("{flag} {value}"),
        }
    }
}
