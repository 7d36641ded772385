#!/usr/bin/env bash
# fuzz/run.sh [SECONDS_PER_TARGET] [JOBS]
#
# Builds every fuzz target (fuzz/build.sh), makes the seed corpora from
# corpus/ and ../shared/corpus (every game record a seed, also converted to
# the other formats that read it), then runs each target for
# SECONDS_PER_TARGET (default 60) with JOBS libFuzzer workers (default 1).
# The fuzzers go on past a finding; each finding is saved under
# fuzz/artifacts/TARGET/ (crash-*, timeout-*, oom-*) with what the target
# said about it (.log) and, for gen_* targets, the rendered text (.input).
# Prints per target the executions and the new findings; exits 1 when
# there is any.
#
# Environment:
#   KIFU_FUZZ_TARGETS  the targets to run (default: all)
#   KIFU_FUZZ_BIN      a folder of built targets: no build (fuzz/package.sh
#                      makes one that runs where no Rust toolchain is)
#   KIFU_FUZZ_SEEDS    a folder of seeds (FORMAT/...): not made again
#   KIFU_FUZZ_SEED_MAX seeds per format (default 2000)
#   KIFU_FUZZ_CORPORA  folders the seeds come from (default: corpus
#                      ../shared/corpus, from the repository root)
#   KIFU_FUZZ_WORK     where corpus/ and artifacts/ go (default: fuzz/)
#   KIFU_FUZZ_RUNS     N: instead of SECONDS_PER_TARGET and JOBS, run each
#                      target in one process for its seeds and N mutations
#                      with a fixed random seed, stopping at the first
#                      finding: the same build explores the same inputs on
#                      any machine (what CI runs, so that a submission never
#                      fails by chance)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
jobs=${2:-1}

# A folder made by fuzz/package.sh holds bin/ and seeds/ beside this script.
bin=${KIFU_FUZZ_BIN:-}
seeds=${KIFU_FUZZ_SEEDS:-}
if [ -z "$bin" ] && [ -d "$here/bin" ]; then
  bin=$here/bin
  if [ -z "$seeds" ] && [ -d "$here/seeds" ]; then seeds=$here/seeds; fi
fi
if [ -z "$bin" ]; then bin=$("$here/build.sh"); fi

# Every target built: read_* and roundtrip_* for each reader, then gen_*.
targets_all=$(cd "$bin" && for f in read_* roundtrip_* gen_*; do
  if [ -f "$f" ] && [ -x "$f" ]; then echo "$f"; fi
done)
targets=${KIFU_FUZZ_TARGETS:-$targets_all}
if [ -z "$targets" ]; then echo "fuzz: no targets in $bin" >&2; exit 2; fi

work=${KIFU_FUZZ_WORK:-$here}
if [ -z "$seeds" ]; then
  seeds=$work/seeds
  "$here/seed.sh" "$seeds" "$bin"
fi

# What kind of finding a log shows, in one line.
signature() {
  if grep -aq 'overflowed its stack' "$1"; then echo "stack overflow"
  elif grep -aq 'ERROR: libFuzzer: timeout' "$1" || [[ $1 == */timeout-* ]]; then
    echo "timeout ($(grep -aoE 'in [0-9]+ ms' "$1" | head -1) when replayed)"
  elif grep -aqE 'out-of-memory|malloc\(' "$1" || [[ $1 == */oom-* ]]; then echo "out of memory"
  elif grep -aq 'panicked at' "$1"; then
    grep -a -m1 -A1 'panicked at' "$1" | tail -1 | cut -c1-160 \
      | sed -E 's/`[^`]*`/`_`/g; s/[0-9]+/N/g'
  else echo "other: $(grep -a -m1 'ERROR' "$1" | cut -c1-100)"
  fi
}

# Raw targets get real records, up to 128 KiB; gen targets build large
# records from a few bytes.
findings_all=0
printf '%-26s %12s %9s\n' target executions findings
for t in $targets; do
  case $t in
    gen_*) max_len=4096; seed_dir="" ;;
    *) max_len=131072; f=${t#*_}; f=${f//_/-}; seed_dir=$seeds/$f ;;
  esac
  corpus=$work/corpus/$t
  # Deterministic runs start from the seeds alone, never an earlier corpus.
  if [ -n "${KIFU_FUZZ_RUNS:-}" ]; then rm -rf "$corpus"; fi
  art=$work/artifacts/$t
  mkdir -p "$corpus" "$art"
  stamp=$(mktemp)
  log=$work/artifacts/$t.log
  if [ -n "${KIFU_FUZZ_RUNS:-}" ]; then
    # Deterministic: -runs counts the seeds' executions too.
    n_seeds=0
    for d in "$corpus" $seed_dir; do
      n_seeds=$((n_seeds + $(find "$d" -type f | wc -l)))
    done
    "$bin/$t" -seed=1 -runs=$((n_seeds + KIFU_FUZZ_RUNS)) \
      -max_len="$max_len" -timeout=25 -rss_limit_mb=2048 \
      -artifact_prefix="$art/" -print_final_stats=1 "$corpus" $seed_dir >"$log" 2>&1 || true
  else
    # -fork with -ignore_*: a finding is saved and the fuzzing goes on.
    "$bin/$t" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$secs" -max_len="$max_len" -timeout=25 -rss_limit_mb=2048 \
      -artifact_prefix="$art/" -print_final_stats=1 "$corpus" $seed_dir >"$log" 2>&1 || true
  fi
  execs=$(grep -aoE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  new=$(find "$art" -maxdepth 1 -type f -newer "$stamp" \
    \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) ! -name '*.log' ! -name '*.input' | sort)
  rm -f "$stamp"
  n=0
  for a in $new; do
    n=$((n + 1))
    [ $n -le 20 ] || continue
    # What the target says about it, and the text a gen target made of it.
    KIFU_FUZZ_DUMP="$a.input" timeout 120 "$bin/$t" -timeout=100 -rss_limit_mb=2048 "$a" \
      >"$a.log" 2>&1 || true
    case $t in gen_*) ;; *) rm -f "$a.input" ;; esac
  done
  findings_all=$((findings_all + n))
  printf '%-26s %12s %9s\n' "$t" "${execs:-0}" "$n"
  # The kinds of findings, with counts (numbers and quoted text elided).
  for a in $new; do [ -f "$a.log" ] && signature "$a.log"; done | sort | uniq -c | sort -rn \
    | sed 's/^/    /' | tee "$art.findings"
done
if [ "$findings_all" -gt 0 ]; then
  echo "fuzz: $findings_all findings (fuzz/artifacts/)" >&2
  exit 1
fi
