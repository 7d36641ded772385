#!/usr/bin/env bash
# How kifu scales with cores, for a machine without a Rust toolchain or a
# network: copy a release binary (cargo build --release), this script and an
# archive there, then
#
#   benches/scaling.sh BIN ARCHIVE [rounds] [jobs...]
#   benches/scaling.sh ./kifu chess-archive.pgn 3 1 2 4 8 16
#
# Runs `BIN convert -q -j N --from F --to F ARCHIVE -o /dev/null` for every
# N (default 1 2 4 8 16), `rounds` times each (default 3), the rounds
# interleaved, under /usr/bin/time -v for the peak memory; with
# pgn-extract installed and a pgn archive, `pgn-extract -s` in the same
# rounds; with zstd installed, the archive compressed to .zst read at the
# largest N, and `zstd -dc` alone (the decompressor is serial per stream:
# its time is the floor of a compressed input). Prints one line per command:
# best and median wall time, MB/s of uncompressed text (best), speedup over
# -j 1 (best), peak RSS (largest of the rounds).
# KIFU_FROM=draughts-num times another notation (default: pgn, or
# draughts-num for a .pdn archive).
set -euo pipefail

bin=${1:?usage: benches/scaling.sh BIN ARCHIVE [rounds] [jobs...]}
file=${2:?usage: benches/scaling.sh BIN ARCHIVE [rounds] [jobs...]}
rounds=${3:-3}
shift $(($# < 3 ? $# : 3))
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(1 2 4 8 16)
case $file in
  *.pdn | *.pdn.*) from=${KIFU_FROM:-draughts-num} ;;
  *) from=${KIFU_FROM:-pgn} ;;
esac
[ -x "$bin" ] || { echo "$bin is not an executable" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package time)" >&2; exit 1; }
bytes=$(stat -c %s "$file")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

commands=()
for j in "${jobs[@]}"; do
  commands+=("$bin convert -q -j $j --from $from --to $from $file -o /dev/null")
done
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
if [ "$from" = pgn ] && [ -x "$pe" ]; then
  commands+=("$pe -s $file -o /dev/null")
fi
if command -v zstd >/dev/null; then
  zstd -q -c "$file" >"$tmp/archive.zst"
  last=${jobs[${#jobs[@]} - 1]}
  commands+=("$bin convert -q -j $last --from $from --to $from $tmp/archive.zst -o /dev/null")
  commands+=("zstd -dc $tmp/archive.zst")
fi

echo "$(nproc) cores; $file: $bytes bytes; $rounds rounds; $(uptime)"
for ((r = 0; r < rounds; r++)); do
  for i in "${!commands[@]}"; do
    /usr/bin/time -f "%e %M" -o "$tmp/one" ${commands[$i]} >/dev/null 2>"$tmp/err" || {
      echo "failed: ${commands[$i]}" >&2
      cat "$tmp/err" >&2
      exit 1
    }
    echo "$i $(tail -n 1 "$tmp/one")" >>"$tmp/times"
  done
done

first=$(sort -n -k2 <(grep "^0 " "$tmp/times") | head -n 1 | cut -d' ' -f2)
printf "%-8s %-8s %-8s %-8s %-9s %s\n" best median MB/s speedup "peak RSS" command
for i in "${!commands[@]}"; do
  sort -n -k2 <(grep "^$i " "$tmp/times") | awk -v cmd="${commands[$i]}" -v bytes="$bytes" \
    -v first="$first" '
    { t[NR] = $2; if ($3 > rss) rss = $3 }
    END { printf "%-8s %-8s %-8.1f %-8s %-9s %s\n", sprintf("%.2f s", t[1]),
          sprintf("%.2f s", t[int((NR + 1) / 2)]), bytes / t[1] / 1e6,
          sprintf("%.2fx", first / t[1]), sprintf("%.1f MB", rss / 1024), cmd }'
done
