//! kifu converts board-game records between notations, losslessly and at
//! archive scale.
//!
//! Every notation is a pest grammar (under `grammars/`) plus a reader and a
//! writer around one intermediate representation ([`ir`]). Each game
//! family is a folder of [`family`] (its types, rules and notations); the
//! PGN-style [`container`] is shared by the container notations; the
//! [`format`] registry lists every format, with the record scanner and the
//! [`options`] each declares; [`archive`] splits inputs into records and
//! maps them in parallel, in order; [`output`] writes outputs safely.
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
pub mod diff;
pub mod error;
pub mod family;
pub mod format;
pub mod input;
pub mod interchange;
pub mod ir;
pub mod options;
pub mod output;
pub mod spell;
