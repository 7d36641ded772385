//! kifu converts board-game records between notations, losslessly and at
//! archive scale.
//!
//! Every notation is a pest grammar (under `grammars/`) plus a reader and a
//! writer around one intermediate representation ([`ir`]). The crate is
//! built in floors, each importing only the floors below it:
//!
//! 1. [`error`], [`ir`] and [`family`]: the game representation, each
//!    family's types and rules in its room (`family/chess/`, ...), and the
//!    dialect of its container notations ([`family::dialect`]);
//! 2. [`codec`]: the contract between formats and the pipeline (read and
//!    write functions and their options, record scanning, locations and
//!    limits), with [`options`] (the typed options a format declares);
//! 3. [`container`]: the PGN-style frame the container notations share;
//!    the notations themselves in their families' rooms; [`interchange`];
//! 4. [`mod@format`]: the list of every format; [`spell`];
//! 5. [`archive`] (splits inputs into records and maps them in parallel, in
//!    order), [`diff`], [`options::run`]; [`output`] and [`input`] write and
//!    read files safely;
//! 6. what the command line runs: [`plan`] finds the inputs and names the
//!    outputs of a conversion, [`convert`] runs it, [`report`] says what
//!    happened, and [`diff::report`] compares two transcriptions.
//!
//! ```
//! use kifu::format::by_name;
//! use kifu::codec::{ReadOptions, WriteOptions};
//! let num = by_name("draughts-num").unwrap();
//! let diag = by_name("draughts-diag").unwrap();
//! let parsed = (num.read.unwrap())("1. 32-28 19-23 *", &ReadOptions::default()).unwrap();
//! let mut out = String::new();
//! (diag.write.unwrap())(&parsed.game, &WriteOptions::default(), &mut out).unwrap();
//! // No GameType tag: the board was inferred from the moves, and is named.
//! assert_eq!(out, "[GameType \"20\"]\n\n1. e45 e76 *\n");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod archive;
pub mod codec;
pub mod container;
pub mod convert;
pub mod diff;
pub mod error;
pub mod family;
pub mod format;
pub mod input;
pub mod interchange;
pub mod ir;
pub mod options;
pub mod output;
pub mod picture;
pub mod plan;
pub mod report;
pub mod spell;
