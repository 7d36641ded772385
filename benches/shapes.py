#!/usr/bin/env python3
"""Makes the three chess shapes that benches/peers.sh compares kifu on
(issue 37): plain games, lichess games (a `[%eval]` and `[%clk]` comment
after every main-line move) and engine games (a TCEC-style comment after
every main-line move: depth, times, nodes, the principal variation...),
all from the same plain games of the shared corpus, so that the three
differ only in their comments. The files are written to OUT_DIR, never to
the repository:

    benches/shapes.py ../shared/corpus/chess OUT_DIR [copies] [games]

writes OUT_DIR/plain.pgn, OUT_DIR/clocks.pgn and OUT_DIR/engine.pgn, each
the first `games` games (default all 2,251: 1.9 MB plain, 7.8 MB with
clocks, 36 MB with engine comments) `copies` times (default 1).
Only games with no comment, variation or escape are taken; the output is
deterministic.
"""
import random
import re
import sys
from pathlib import Path

SOURCES = [
    "twic/twic0920.pgn",
    "pychess-tests/world_matches.pgn",
    "scoutfish/famous_games.pgn",
]
NUMBER = re.compile(r"^\d+\.+$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def records(text):
    """The records of a file: (tag lines, movetext tokens)."""
    for block in re.split(r"\n\s*\n(?=\[)", text.replace("\r\n", "\n")):
        lines = block.strip().split("\n")
        tags = [l for l in lines if l.startswith("[")]
        moves = " ".join(l for l in lines if not l.startswith("["))
        if not tags or not moves.strip():
            continue
        if any(c in moves for c in "{}();%$"):
            continue
        yield tags, moves.split()


def wrap(tokens):
    out, line = [], ""
    for t in tokens:
        if line and len(line) + 1 + len(t) > 79:
            out.append(line)
            line = t
        else:
            line = f"{line} {t}" if line else t
    out.append(line)
    return "\n".join(out)


def clock(seconds):
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def lichess(sans, rng):
    """One `{ [%eval] [%clk] }` comment per move, as lichess exports them."""
    left = [rng.choice([180, 300, 600, 900]) for _ in range(2)]
    ev = 0.2
    out = []
    for i, _ in enumerate(sans):
        left[i % 2] = max(0, left[i % 2] - rng.randint(0, 12))
        ev += rng.uniform(-0.4, 0.4)
        out.append(f"{{ [%eval {ev:.2f}] [%clk {clock(left[i % 2])}] }}")
    return out


def engine(sans, rng):
    """One TCEC-style comment per move: the engine's report, its principal
    variation the game's next moves."""
    out = []
    tl = [5_400_000, 5_400_000]
    for i, _ in enumerate(sans):
        mt = rng.randint(2_000, 200_000)
        tl[i % 2] = max(1000, tl[i % 2] - mt + 10_000)
        nodes = mt * rng.randint(900, 2500)
        pv = " ".join(sans[i + 1 : i + 1 + rng.randint(6, 20)]) or sans[i]
        wv = rng.uniform(-1.5, 1.5)
        out.append(
            f"{{d={rng.randint(20, 60)}, sd={rng.randint(40, 90)}, mt={mt}, "
            f"tl={tl[i % 2]}, s={nodes * 1000 // mt}, n={nodes}, pv={pv}, "
            f"tb={rng.randint(0, 9999)}, h={rng.uniform(0, 99):.1f}, ph=0.0, "
            f"wv={wv:.2f}, R50={max(1, 50 - i // 2)}, Rd=-11, Rr=-1000, "
            f"mb=+0+0+0+0+0,}}"
        )
    return out


def main():
    corpus = Path(sys.argv[1])
    out_dir = Path(sys.argv[2])
    copies = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    games = []
    for source in SOURCES:
        text = (corpus / source).read_text(encoding="latin-1")
        games.extend(records(text))
    if len(sys.argv) > 4:
        games = games[: int(sys.argv[4])]
    shapes = {"plain": None, "clocks": lichess, "engine": engine}
    for name, make in shapes.items():
        rng = random.Random(37)
        parts = []
        for tags, tokens in games:
            sans = [t for t in tokens if not NUMBER.match(t) and t not in RESULTS]
            comments = iter(make(sans, rng)) if make else None
            body = []
            for t in tokens:
                body.append(t)
                if comments and not NUMBER.match(t) and t not in RESULTS:
                    body.append(next(comments))
            parts.append("\n".join(tags) + "\n\n" + wrap(body) + "\n")
        text = "\n".join(parts * copies)
        (out_dir / f"{name}.pgn").write_text(text, encoding="latin-1")
        print(f"{out_dir / name}.pgn: {len(text)} bytes, {len(parts) * copies} games")


if __name__ == "__main__":
    main()
