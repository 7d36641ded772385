//! The conformance tests: kifu against external tools (python-chess,
//! Chromium, xmllint, sqlite3, PostgreSQL, and DuckDB, pandas and pyarrow, and the script of the
//! peers' table, `conformance/peers.py`) and over the whole shared
//! chess and draughts corpus (`../shared/corpus`, or `KIFU_SHARED`), which
//! take minutes and need what a fresh clone lacks; and a copy of kifu with
//! a toy family added (`adding_a_family`). A test target of its own with
//! `test = false` (Cargo.toml), so `cargo test` neither builds nor runs
//! them:
//!
//! ```text
//! cargo test --test conformance
//! ```
//!
//! `.ci/run` installs the tools and runs them after the fast suite
//! (`tests/it`). A test whose shared folder is absent skips with a message;
//! one whose tool is missing fails, unless its variable says to skip
//! (`KIFU_SKIP_DB=1`, `KIFU_SKIP_XMLLINT=1`; Chromium is needed only when
//! `KIFU_REQUIRE_CHROMIUM` is set, python-chess only when `CI` is).

#[path = "../common/mod.rs"]
mod common;

mod adding_a_family;
mod chess_corpus;
mod csv;
mod draughts_board;
mod draughts_corpus;
mod fast_lexer;
mod memory;
mod parquet;
mod peers;
mod pictures;
mod python_crosscheck;
mod scoresheet_print;
mod sllavcco;
mod xml;
