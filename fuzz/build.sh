#!/usr/bin/env bash
# Builds every fuzz target, instrumented for libFuzzer, on stable Rust:
# libfuzzer-sys compiles libFuzzer (C++: needs c++/g++) and rustc adds the
# coverage instrumentation cargo-fuzz would add (sancov passes, --cfg
# fuzzing). No sanitizer: kifu forbids unsafe code. Release, with debug
# assertions and overflow checks (fuzz/Cargo.toml's profile).
#
# The binaries land in fuzz/target/HOST/release/ (printed at the end); they
# need no Rust toolchain to run (see fuzz/package.sh).
set -euo pipefail
cd "$(dirname "$0")"
host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebuginfo=1"
# --target keeps RUSTFLAGS off build scripts and proc macros (pest_derive).
cargo build --release --locked --target "$host" --bins >&2
echo "${CARGO_TARGET_DIR:-$PWD/target}/$host/release"
