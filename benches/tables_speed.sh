#!/usr/bin/env bash
# The table speed of docs/benchmarks.md ("CSV and Parquet"): one core
# (taskset -c 0, -j 1), pgn -> pgn, pgn -> csv and pgn -> parquet on one file,
# `rounds` times each (default 5); prints the best CPU time (user + system)
# and the best wall time of each. The load of a shared machine shows in the
# wall time: compare CPU times.
#
#   cargo build --release
#   benches/mixed_chess.sh > /tmp/mixed.pgn
#   benches/tables_speed.sh target/release/kifu /tmp/mixed.pgn [rounds] [--to-opt fen=true]
set -euo pipefail

bin=${1:?usage: benches/tables_speed.sh BIN FILE [rounds] [options...]}
file=${2:?usage: benches/tables_speed.sh BIN FILE [rounds] [options...]}
rounds=${3:-5}
shift $(($# < 3 ? $# : 3))
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for to in pgn csv parquet; do
  best_cpu=999999 best_wall=999999
  for _ in $(seq "$rounds"); do
    rm -rf "$tmp/out"
    case $to in
      pgn) dest=(-o /dev/null); opts=() ;;
      *) dest=(--out-dir "$tmp/out"); opts=("$@") ;;
    esac
    /usr/bin/time -o "$tmp/time" -f "%e %U %S" taskset -c 0 "$bin" convert -q -j 1 \
      --from pgn --to "$to" ${opts[@]+"${opts[@]}"} "$file" "${dest[@]}" >/dev/null 2>&1 || true
    read -r wall user sys <"$tmp/time"
    cpu=$(echo "$user $sys" | awk '{print $1 + $2}')
    best_cpu=$(echo "$best_cpu $cpu" | awk '{print ($2 < $1) ? $2 : $1}')
    best_wall=$(echo "$best_wall $wall" | awk '{print ($2 < $1) ? $2 : $1}')
  done
  echo "pgn -> $to: best cpu ${best_cpu} s, best wall ${best_wall} s"
done
