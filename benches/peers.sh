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
# PGN_READER=1 adds the Rust peer: pgn-reader with shakmaty replaying every
# main-line move, check only (the validate example of pgn-reader), built in
# the temporary folder from crates.io (GPL-3.0: built for the measurement,
# never part of kifu's build); PGN_READER_BIN=path times that program built
# elsewhere (say offline, from the sources patched in by path) instead.
# Without pgn-extract installed, its commands are left out.
# QUICK=1 keeps kifu's `-j 1` FROM -> FROM alone beside the peers.
# CALLGRIND=1 runs each command once under valgrind's callgrind instead of
# timing rounds, and prints its instruction count (which the load of a
# shared machine does not change), and with the Rust peer each kifu
# command's ratio to it (the peer's count over kifu's: 0.45x is kifu at
# 45% of the peer's speed).
#
# The three shapes of chess comments (issue 37: plain games, lichess clocks
# and evaluations, engine comments) are made by benches/shapes.py:
#
#   benches/shapes.py ../shared/corpus/chess /tmp/shapes
#   for s in plain clocks engine; do PGN_READER=1 benches/peers.sh /tmp/shapes/$s.pgn 5; done
set -euo pipefail

file=${1:?usage: benches/peers.sh ARCHIVE [rounds]}
rounds=${2:-10}
kifu=${KIFU:-target/release/kifu}
before=${KIFU_BEFORE:-}
from=${KIFU_FROM:-pgn}
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$kifu" ] || { echo "build kifu first: cargo build --release" >&2; exit 1; }
if [ "$from" = pgn ] && [ ! -x "$pe" ]; then
  echo "pgn-extract is not installed (apt-get install pgn-extract): left out" >&2
  pe=
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
  if [ "${QUICK:-}" = 1 ]; then
    commands+=("$bin convert -q -j 1 --from $from --to $from $file -o /dev/null")
    continue
  fi
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
if [ "${QUICK:-}" != 1 ]; then
  [ -f "$tmp/$base.zst" ] && commands+=("zstd -dc $tmp/$base.zst")
  [ -f "$tmp/$base.gz" ] && commands+=("gzip -dc $tmp/$base.gz")
fi
if [ "$from" = pgn ] && [ -n "$pe" ] && [ "${QUICK:-}" != 1 ]; then
  commands+=("$pe -s -Wlalg $file -o /dev/null" "$pe -s $file -o /dev/null")
fi
if [ "$from" = pgn ] && [ -n "${PGN_READER_BIN:-}" ]; then
  commands+=("$PGN_READER_BIN $file")
elif [ "$from" = pgn ] && [ "${PGN_READER:-}" = 1 ]; then
  mkdir -p "$tmp/peer/src"
  cat >"$tmp/peer/Cargo.toml" <<'TOML'
[package]
name = "pgn-reader-check"
version = "0.0.0"
edition = "2021"
[dependencies]
pgn-reader = "0.26"
shakmaty = "0.27"
TOML
  cat >"$tmp/peer/src/main.rs" <<'RUST'
// Every main-line SAN replayed on shakmaty's position; variations skipped.
use pgn_reader::{BufferedReader, RawHeader, SanPlus, Skip, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
struct Check { pos: Chess, ok: bool, games: usize, failed: usize }
impl Visitor for Check {
    type Result = ();
    fn begin_game(&mut self) { self.pos = Chess::default(); self.ok = true; self.games += 1; }
    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        if key == b"FEN" {
            match Fen::from_ascii(value.as_bytes()).ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok()) {
                Some(p) => self.pos = p,
                None => self.ok = false,
            }
        }
    }
    fn begin_variation(&mut self) -> Skip { Skip(true) }
    fn san(&mut self, san: SanPlus) {
        if self.ok {
            match san.san.to_move(&self.pos) {
                Ok(m) => self.pos.play_unchecked(&m),
                Err(_) => self.ok = false,
            }
        }
    }
    fn end_game(&mut self) { if !self.ok { self.failed += 1 } }
}
fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).expect("a file");
    let mut reader = BufferedReader::new(std::fs::File::open(path)?);
    let mut check = Check { pos: Chess::default(), ok: true, games: 0, failed: 0 };
    while reader.read_game(&mut check)?.is_some() {}
    eprintln!("{} games, {} failed", check.games, check.failed);
    Ok(())
}
RUST
  cargo build -q --release --manifest-path "$tmp/peer/Cargo.toml" --target-dir "$tmp/peer/target"
  commands+=("$tmp/peer/target/release/pgn-reader-check $file")
fi

if [ "${CALLGRIND:-}" = 1 ]; then
  echo "$file: $bytes bytes, instructions (callgrind)"
  counts=()
  for c in "${commands[@]}"; do
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $c 2>&1 >/dev/null |
      sed -n 's/.*Collected : //p')
    counts+=("$n")
    printf "%'15d  %s\n" "$n" "$c"
  done
  # With the Rust peer (the last command), each kifu command's speed as a
  # fraction of the peer's: the peer's instructions over kifu's.
  if [ "$from" = pgn ] && { [ -n "${PGN_READER_BIN:-}" ] || [ "${PGN_READER:-}" = 1 ]; }; then
    peer=${counts[-1]}
    for i in "${!commands[@]}"; do
      case "${commands[$i]}" in
      *" convert "*) awk -v p="$peer" -v k="${counts[$i]}" -v c="${commands[$i]}" \
        'BEGIN { printf "%6.3fx the peer  %s\n", p / k, c }' ;;
      esac
    done
  fi
  exit 0
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
