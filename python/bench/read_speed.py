#!/usr/bin/env python3
"""Reading speed of kifu's Python package against python-chess (docs/benchmarks.md,
"Python"): every game of a PGN file read with each, and each main line's
SAN taken (kifu: `ply["text"]`; python-chess: `board.san` along
`mainline_moves`). Prints games, seconds, MB/s and the peak memory of the
process after each reader.

    python3 python/bench/read_speed.py FILE.pgn [--kifu-only]
"""

import os
import resource
import sys
import time

import kifu


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def with_kifu(path):
    games = plies = 0
    for game in kifu.read(path):
        if isinstance(game, kifu.ReadError):
            continue
        games += 1
        plies += len([p["text"] for p in game.moves])
    return games, plies


def with_python_chess(path):
    import chess.pgn

    games = plies = 0
    with open(path, encoding="utf-8-sig") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            board = game.board()
            for move in game.mainline_moves():
                board.san(move)
                board.push(move)
                plies += 1
    return games, plies


def main():
    path = sys.argv[1]
    size = os.path.getsize(path) / 1e6
    readers = [("kifu", with_kifu)]
    if "--kifu-only" not in sys.argv:
        readers.append(("python-chess", with_python_chess))
    for name, read in readers:
        start = time.perf_counter()
        games, plies = read(path)
        secs = time.perf_counter() - start
        print(
            f"{name}: {games} games, {plies} plies, {size:.1f} MB in {secs:.2f} s "
            f"({size / secs:.1f} MB/s); peak RSS {peak_mib():.0f} MiB"
        )


if __name__ == "__main__":
    main()
