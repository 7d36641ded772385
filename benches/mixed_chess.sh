#!/usr/bin/env bash
# Makes the mixed chess file the table speed is measured on (docs/benchmarks.md,
# "CSV and Parquet"): plain games, games with lichess clock comments and games
# with engine comments (TCEC, cutechess, Stockfish), from the shared corpus, about
# 8.9 MB. The corpus has few clock and engine games, so those files are repeated.
#
#   benches/mixed_chess.sh [CORPUS] > /tmp/mixed.pgn
#
# CORPUS is the chess folder of the shared corpus (default
# ../shared/corpus/chess). The file stays out of the repository.
set -euo pipefail

corpus=${1:-${KIFU_SHARED:-../shared}/corpus/chess}
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }
cd "$corpus"

# One record after another, a blank line between files.
put() { cat "$1"; printf '\n\n'; }

# Plain games: tournaments and collections (about 5.9 MB).
for f in twic/twic0920.pgn pychess-tests/world_matches.pgn pychess-tests/dortmund.pgn \
  scoutfish/famous_games.pgn scoutfish/newyork1924.pgn scoutfish/middleg.pgn; do
  put "$f"
done
# Clock comments ([%clk 0:03:00], lichess and broadcasts): about 1 MB.
for _ in $(seq 75); do
  for f in notnil-chess-fixtures/0004.pgn notnil-chess-fixtures/0005.pgn \
    scalachess/fixtures/allSortOfClocks.pgn scalachess/fixtures/stLouisFischerandom.pgn; do
    put "$f"
  done
done
# Engine comments (depth, score, time, nodes on every move): about 1.9 MB.
for _ in $(seq 40); do
  for f in scalachess/fixtures/fromTcecWithEngineOutput.pgn python-chess/stockfish-learning.pgn \
    python-chess/cutechess-fischerrandom.pgn; do
    put "$f"
  done
done
