#!/usr/bin/env bash
# Installs the tools that kifu's recipes and tests use and kifu itself does
# not need (README, "Install"; docs/testing.md). Each is one line of the
# README; this script runs them where the tool is missing:
#   python-chess 1.11.2   cargo test --test conformance (the cross-check)
#   pandas pyarrow duckdb  the notebook recipe, DuckDB from Python, the
#                          parquet conformance tests
#   mdbook 0.4.40          the book (mdbook build docs)
#   sqlite3, xmllint, chromium, postgresql, GNU time
#                          the conformance tests (apt-get, with sudo unless root)
# Usage: tools/install-test-tools.sh [--python]   (--python: the Python packages alone)
set -euo pipefail

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
# A Python marked externally managed (PEP 668) needs --break-system-packages.
pip_install() {
  python3 -m pip install --quiet "$@" || python3 -m pip install --quiet --break-system-packages "$@"
}

CHESS=1.11.2
if ! python3 -c "import sys, chess; sys.exit(chess.__version__ != '$CHESS')" 2>/dev/null; then
  pip_install "chess==$CHESS"
fi
if ! python3 -c "import duckdb, pyarrow, pandas" 2>/dev/null; then
  pip_install duckdb pyarrow pandas
fi
if [ "${1:-}" = "--python" ]; then
  exit 0
fi

MDBOOK=0.4.40
if ! mdbook --version 2>/dev/null | grep -q "v$MDBOOK"; then
  cargo install mdbook --version "$MDBOOK" --locked --no-default-features
fi

NEED=""
command -v sqlite3 >/dev/null 2>&1 || NEED="$NEED sqlite3"
command -v xmllint >/dev/null 2>&1 || NEED="$NEED libxml2-utils"
command -v chromium >/dev/null 2>&1 || NEED="$NEED chromium"
[ -x /usr/bin/time ] || NEED="$NEED time"
if ! command -v psql >/dev/null 2>&1 \
  || { ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }; then
  NEED="$NEED postgresql"
fi
if [ -n "$NEED" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install with your system's packages:$NEED" >&2
    exit 1
  fi
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $NEED >/dev/null
fi
