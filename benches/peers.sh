#!/usr/bin/env bash
# Times kifu against pgn-extract (Debian package pgn-extract) on one archive,
# the commands interleaved round after round so that both see the same load.
# Prints, for each command, the best and the median wall time.
#
#   KIFU_BENCH_ARCHIVE=/tmp/chess-archive.pgn cargo bench --bench convert -- chess
#   cargo build --release
#   benches/peers.sh /tmp/chess-archive.pgn [rounds]
set -euo pipefail

file=${1:?usage: benches/peers.sh ARCHIVE.pgn [rounds]}
rounds=${2:-10}
kifu=${KIFU:-target/release/kifu}
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$kifu" ] || { echo "build kifu first: cargo build --release" >&2; exit 1; }
[ -x "$pe" ] || { echo "pgn-extract is not installed (apt-get install pgn-extract)" >&2; exit 1; }

commands=(
  "$kifu convert -q -j 1 --from pgn --to pgn $file -o /dev/null"
  "$kifu convert -q -j 2 --from pgn --to pgn $file -o /dev/null"
  "$kifu convert -q -j 1 --from pgn --to sllavcco $file -o /dev/null"
  "$kifu convert -q -j 2 --from pgn --to sllavcco $file -o /dev/null"
  "$kifu convert -q -j 1 --grammar-only --from pgn --to pgn $file -o /dev/null"
  "$pe -s -Wlalg $file -o /dev/null"
  "$pe -s $file -o /dev/null"
)

times=$(mktemp)
trap 'rm -f "$times"' EXIT
for ((r = 0; r < rounds; r++)); do
  for i in "${!commands[@]}"; do
    start=$(date +%s.%N)
    ${commands[$i]} >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$i $(echo "$end - $start" | bc)" >>"$times"
  done
done

for i in "${!commands[@]}"; do
  sort -n -k2 <(grep "^$i " "$times") | awk -v cmd="${commands[$i]}" '
    { t[NR] = $2 }
    END { printf "best %.3f s  median %.3f s  %s\n", t[1], t[int((NR + 1) / 2)], cmd }'
done
