#!/usr/bin/env bash
# fuzz/seed.sh SEEDS_DIR BIN_DIR: makes the seed corpora (SEEDS_DIR/FORMAT/)
# from corpus/ and ../shared/corpus (or KIFU_FUZZ_CORPORA), with the built
# targets of BIN_DIR; at most KIFU_FUZZ_SEED_MAX seeds a format (default
# 2000). Used by run.sh and package.sh.
set -euo pipefail
seeds=${1:?usage: fuzz/seed.sh SEEDS_DIR BIN_DIR}
bin=${2:?usage: fuzz/seed.sh SEEDS_DIR BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
corpora=${KIFU_FUZZ_CORPORA:-"$root/corpus $root/../shared/corpus"}
rm -rf "$seeds"
dirs=""
for d in $corpora; do
  if [ -d "$d" ]; then dirs="$dirs $d"; else echo "fuzz: no $d: not seeded from it" >&2; fi
done
# libFuzzer owns main: a target given KIFU_FUZZ_SEED writes the seeds and exits.
KIFU_FUZZ_SEED="$seeds ${KIFU_FUZZ_SEED_MAX:-2000} $dirs" "$bin/read_pgn" -runs=0 2>&1 \
  | grep -v '^WARNING: Failed to find function' >&2
