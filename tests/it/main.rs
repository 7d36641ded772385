//! The fast suite: every integration test that needs nothing outside the
//! checkout (no external tool, not the whole shared corpus), in one crate so
//! that `cargo test` links one test binary. One module per topic; helpers
//! shared with `tests/conformance` are in `tests/common`.
//!
//! A test that reads the shared folder (`../shared`, or where `KIFU_SHARED`
//! points) reads a few named files of it, or its small tafl and shogi
//! folders, and skips with a message when it is absent. The checks that run
//! external tools (python-chess, Chromium, xmllint, sqlite3, PostgreSQL) or
//! go over the whole shared chess and draughts corpus are in
//! `tests/conformance`: `cargo test --test conformance`.
//!
//! The property tests' saved failures are in `tests/proptest-regressions`
//! (`properties.txt`, ...): where proptest looks for those of a module of a
//! crate whose `main.rs` is `tests/it/main.rs`.

#[path = "../common/mod.rs"]
mod common;

/// What the fuzz targets check (`fuzz/src/check.rs`), replayed here.
#[path = "../../fuzz/src/check.rs"]
#[allow(dead_code)]
mod check;

mod aagenielsen;
mod aagenielsen_counted;
mod aagenielsen_last;
mod aagenielsen_later;
mod aagenielsen_taken_back;
mod aagenielsen_turned;
mod batches;
mod buffers;
mod bundled_corpus;
mod chess_cli;
mod chess_corpus;
mod cli;
mod cli_defs;
mod coerceo;
mod comments;
mod compressed;
mod csv;
mod damage;
mod damaged;
mod deadlines;
mod diff;
mod docs;
mod documents;
mod draughts_board;
mod draughts_corpus;
mod draughts_rules;
mod draughts_variants;
mod draughts_world;
mod family_runs;
mod fast_lexer;
mod fen_column;
mod floors;
mod fuzz_regressions;
mod glyphs;
mod layout;
mod limits;
mod long_records;
mod loose;
mod machinery;
mod messages;
mod naming;
mod options;
mod otn_tenjiku_runs;
mod outputs;
mod parquet;
mod pictures;
mod policy;
mod properties;
mod recipes;
mod registry;
mod scanners;
mod scoresheet_print;
mod sllavcco;
mod streaming;
mod tafl;
mod tenjiku;
mod tenjiku_lexer;
mod typed_errors;
mod typed_tags;
mod world;
mod world_again;
mod write_read_back;
mod xml;
