#!/usr/bin/env bash
# Times kifu against pgn-extract (Debian package pgn-extract) on one archive,
# the commands interleaved round after round so that both see the same load.
# The archive is also read compressed (.zst and .gz, made in a temporary
# folder when zstd and gzip are installed), beside the decompressors alone
# (`zstd -dc`, `gzip -dc`): the floor of a compressed input, since
# decompression is serial per stream.
# Prints, for each command, the best and the median wall time, and MB/s of
# the uncompressed text (best).
#
#   KIFU_BENCH_ARCHIVE=/tmp/chess-archive.pgn cargo bench --manifest-path benches/Cargo.toml -- chess
#   cargo build --release
#   benches/peers.sh /tmp/chess-archive.pgn [rounds]
#
# KIFU=path picks the binary (default target/release/kifu); KIFU_BEFORE=path
# adds the same kifu commands run by another binary (say main's, to compare a
# change) in the same rounds; KIFU_FROM=draughts-num times another notation
# (FROM -> FROM only, no pgn-extract: it reads chess alone).
set -euo pipefail

file=${1:?usage: benches/peers.sh ARCHIVE [rounds]}
rounds=${2:-10}
kifu=${KIFU:-target/release/kifu}
before=${KIFU_BEFORE:-}
from=${KIFU_FROM:-pgn}
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$kifu" ] || { echo "build kifu first: cargo build --release" >&2; exit 1; }
if [ "$from" = pgn ] && [ ! -x "$pe" ]; then
  echo "pgn-extract is not installed (apt-get install pgn-extract)" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
times=$tmp/times
bytes=$(stat -c %s "$file")
base=$(basename "$file")
compressed=()
if command -v zstd >/dev/null; then
  zstd -q -c "$file" >"$tmp/$base.zst"
  compressed+=("$tmp/$base.zst")
fi
if command -v gzip >/dev/null; then
  gzip -c "$file" >"$tmp/$base.gz"
  compressed+=("$tmp/$base.gz")
fi

commands=()
for bin in "$kifu" $before; do
  for j in 1 2; do
    commands+=("$bin convert -q -j $j --from $from --to $from $file -o /dev/null")
  done
  if [ "$from" = pgn ]; then
    commands+=("$bin convert -q -j 1 --from pgn --to sllavcco $file -o /dev/null")
    commands+=("$bin convert -q -j 2 --from pgn --to sllavcco $file -o /dev/null")
    commands+=("$bin convert -q -j 1 --grammar-only --from pgn --to pgn $file -o /dev/null")
  fi
  for c in "${compressed[@]}"; do
    commands+=("$bin convert -q -j 2 --from $from --to $from $c -o /dev/null")
  done
done
[ -f "$tmp/$base.zst" ] && commands+=("zstd -dc $tmp/$base.zst")
[ -f "$tmp/$base.gz" ] && commands+=("gzip -dc $tmp/$base.gz")
if [ "$from" = pgn ]; then
  commands+=("$pe -s -Wlalg $file -o /dev/null" "$pe -s $file -o /dev/null")
fi

for ((r = 0; r < rounds; r++)); do
  for i in "${!commands[@]}"; do
    start=$(date +%s.%N)
    ${commands[$i]} >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$i $(echo "$end - $start" | bc)" >>"$times"
  done
done

echo "$file: $bytes bytes, $rounds rounds"
for i in "${!commands[@]}"; do
  sort -n -k2 <(grep "^$i " "$times") | awk -v cmd="${commands[$i]}" -v bytes="$bytes" '
    { t[NR] = $2 }
    END { printf "best %.3f s  median %.3f s  %6.1f MB/s  %s\n",
          t[1], t[int((NR + 1) / 2)], bytes / t[1] / 1e6, cmd }'
done
