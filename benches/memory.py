#!/usr/bin/env python3
"""Peak memory of kifu on one large record, against the record's size.

Writes one-record inputs of the given sizes into a temporary folder (never
into the repository), converts each with kifu, validated and with
`--no-validate`, and prints the maximum resident set that `/usr/bin/time`
reports (Debian's package `time`) with its ratio to the record's size, as a
Markdown table.

    benches/memory.py                        # target/release/kifu, 1 4 16 64 MB
    benches/memory.py --kifu /tmp/kifu-old --sizes 1,4 --shapes chess-moves
    benches/memory.py --jobs 4 --copies 4 --sizes 15 --limit 16M
                                             # four such records, -j 4
    benches/memory.py --flags=--grammar-only # every record read by pest
    benches/memory.py --to json,xml,csv      # each shape to each output
    benches/memory.py --to svg --sizes 0.5 --validated --max-ratio 0 --plus 44
    benches/memory.py --to html --shapes chess-tiny --copies 200000 --sizes 0 \
        --validated --max-ratio 0 --plus 200   # one page of 200,000 games

Shapes (each a legal game, so that validation runs to its end):
- chess-moves: `1. Nf3 Nf6 2. Ng1 Ng8 ...` in lines of moves;
- chess-comments: the same moves, each with a comment after it;
- chess-variations: each move pair with an alternative holding a nested
  alternative (two levels, three variations a pair);
- chess-deep: every move with 400 nested variations on it (one shape of
  depth, below the limit of 500);
- chess-one-variation: the main line one move, `1. Nf3`, and 50 nested
  variations of it (`(1. Nc3 (1. Nc3 ...`), the deepest holding the rest
  of the record (knights out and back, with an alternative every so
  often), then `1... e5`: a record held in one variation;
- chess-dense: `Nf3{}Nf6{}Ng1{}Ng8{}`, no numbers and no blanks, an empty
  comment after every move: the most plies and comments a byte of legal
  text holds, the worst shape found;
- chess-tiny: `1. Nf3 *`, one move whatever the size, for many games
  (`--copies`);
- draughts-moves: draughts-num, two kings of an international board going
  to and fro from a FEN (`46-41 5-10 41-46 10-5`), converted to
  draughts-diag;
- draughts-inferred: the same without its GameType tag (the board inferred
  from the moves);
- draughts-diag-moves: the kings of draughts-moves in draughts-diag
  (`gf5`-style moves), converted to draughts-diag;
- coerceo-moves: coerceo, a white and a black piece going to and fro from
  the start (`3c-3e 4b-3d 3e-3c 3d-4b`), converted to coerceo;
- tafl-moves: tafl on brandubh's rules, an attacker and a defender going to
  and fro from the start (`d2-e2 c4-c5 e2-d2 c5-c4`), converted to tafl;
- otn-moves: the moves of tafl-moves as OpenTafl records them (`.otg`: a
  turn a line, its commentary under it), converted to otn;
- tenjiku-moves: tenjiku, two kings alone going to and fro from a FEN
  (`K-9o K-8b K-9p K-8a`), converted to tenjiku.

`--to own,jsonl`: `own` is each shape's own output.
"""

import argparse
import os
import subprocess
import sys
import tempfile

MB = 1 << 20


def lines(size, pair, head):
    """A record of about `size` bytes: `head`, then `pair(i)` for move
    pairs 1, 2, ... a line each, then `*`."""
    parts = [head]
    n = len(head)
    i = 1
    while n < size:
        s = pair(i) + "\n"
        parts.append(s)
        n += len(s)
        i += 1
    parts.append("*\n")
    return "".join(parts)


def knights(i):
    a, b = 2 * i - 1, 2 * i
    return f"{a}. Nf3 Nf6 {b}. Ng1 Ng8"


def chess_moves(size):
    return lines(size, knights, '[Event "memory"]\n\n')


def chess_comments(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return (f"{a}. Nf3 {{a developing move}} Nf6 {{the same}} "
                f"{b}. Ng1 {{back}} Ng8 {{and back}}")
    return lines(size, pair, '[Event "memory"]\n\n')


def chess_variations(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return (f"{a}. Nf3 ({a}. Nc3 Nc6 ({a}... Nf6 {b}. Nb1) {b}. Nb1 Nb8) "
                f"Nf6 {b}. Ng1 Ng8")
    return lines(size, pair, '[Event "memory"]\n\n')


def chess_deep(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return (f"{a}. Nf3 " + f"({a}. Nc3 " * 400 + ")" * 400
                + f" Nf6 {b}. Ng1 Ng8")
    return lines(size, pair, '[Event "memory"]\n\n')


def chess_one_variation(size):
    def pair(i):
        a, b = i + 1, i + 2
        return f"{a}... Nf6 {b}. Nb1 (Na4 {{a knight}}) {b}... Ng8 {b + 1}. Nc3"
    head = '[Event "memory"]\n\n1. Nf3 ' + "(1. Nc3 " * 50
    record = lines(size, lambda i: pair(2 * i - 1), head)
    # Close the variations before the result.
    return record[: -len("*\n")] + ") " * 50 + "1... e5 *\n"


def chess_dense(size):
    return lines(size, lambda i: "Nf3{}Nf6{}Ng1{}Ng8{}", '[Event "memory"]\n\n')


def chess_tiny(size):
    """One move, whatever `size`: with `--copies`, many tiny games (a page
    of a drawing per game, `--to html`)."""
    return "1. Nf3 *\n"


def draughts_moves(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. 46-41 5-10 {b}. 41-46 10-5"
    return lines(size, pair, '[Event "memory"]\n[GameType "20"]\n[FEN "W:WK46:BK5"]\n\n')


def draughts_inferred(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. 46-41 5-10 {b}. 41-46 10-5"
    return lines(size, pair, '[Event "memory"]\n[FEN "W:WK46:BK5"]\n\n')


def draughts_diag_moves(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. e12 e09 {b}. e21 e90"
    return lines(size, pair, '[Event "memory"]\n[GameType "20"]\n[FEN "W:WK46:BK5"]\n\n')


def coerceo_moves(size):
    def pair(i):
        a = 4 * i - 3
        return f"{a}# 3c-3e {a + 1}# 4b-3d {a + 2}# 3e-3c {a + 3}# 3d-4b"
    return lines(size, pair, '[Event "memory"]\n\n')


def tafl_moves(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. d2-e2 c4-c5 {b}. e2-d2 c5-c4"
    return lines(size, pair, '[Event "memory"]\n[Rules "brandubh"]\n\n')


def otn_moves(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. d2-e2 c4-c5 \n[|]\n\n{b}. e2-d2 c5-c4 \n[|]\n"
    rules = ("dim:7 name:Brandubh atkf:y ka:y ks:c "
             "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    record = lines(size, pair, f"[event:memory]\n[rules:{rules}]\n\n")
    # (No result token after the turns: the record ends with its last.)
    return record[: -len("*\n")]


def tenjiku_moves(size):
    def pair(i):
        a, b = 2 * i - 1, 2 * i
        return f"{a}. K-9o K-8b {b}. K-9p K-8a"
    fen = "8,k,7/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7,K,8 b"
    return lines(size, pair, f'[Event "memory"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n')


SHAPES = {
    "chess-moves": (chess_moves, "pgn", "pgn"),
    "chess-comments": (chess_comments, "pgn", "pgn"),
    "chess-variations": (chess_variations, "pgn", "pgn"),
    "chess-deep": (chess_deep, "pgn", "pgn"),
    "chess-dense": (chess_dense, "pgn", "pgn"),
    "chess-one-variation": (chess_one_variation, "pgn", "pgn"),
    "chess-tiny": (chess_tiny, "pgn", "pgn"),
    "draughts-moves": (draughts_moves, "draughts-num", "draughts-diag"),
    "draughts-inferred": (draughts_inferred, "draughts-num", "draughts-diag"),
    "draughts-diag-moves": (draughts_diag_moves, "draughts-diag", "draughts-diag"),
    "coerceo-moves": (coerceo_moves, "coerceo", "coerceo"),
    "tafl-moves": (tafl_moves, "tafl", "tafl"),
    "otn-moves": (otn_moves, "otn", "otn"),
    "tenjiku-moves": (tenjiku_moves, "tenjiku", "tenjiku"),
}


def peak(kifu, src, dst, path, extra):
    """Peak RSS in bytes of one conversion, and its last line of stderr.
    (GNU time's: the child of a small program. A child of Python counts
    the pages of the Python it was forked from in its peak.)"""
    cmd = ["/usr/bin/time", "-f", "PEAK %M", kifu, "convert",
           "--from", src, "--to", dst, *extra, path, "-o", "/dev/null"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    err = run.stderr.strip().splitlines()
    kb = next(int(l.split()[1]) for l in reversed(err) if l.startswith("PEAK"))
    said = [l for l in err if not l.startswith("PEAK")]
    return kb * 1024, (said[-1] if said else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kifu", default="target/release/kifu")
    ap.add_argument("--sizes", default="1,4,16,64", help="MB, comma-separated")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--jobs", type=int, default=1, help="kifu's -j")
    ap.add_argument("--copies", type=int, default=1,
                    help="records of that size in the input")
    ap.add_argument("--limit", default="1G",
                    help="kifu's --max-record-size (1G: every size converts)")
    ap.add_argument("--flags", default="",
                    help="more flags for kifu, space-separated (--grammar-only)")
    ap.add_argument("--max-ratio", type=float, default=None,
                    help="exit 1 when a peak exceeds this many times its record's "
                         "size (plus --plus), or a record fails (the CI check)")
    ap.add_argument("--plus", type=float, default=0,
                    help="MB allowed above --max-ratio times the record's size")
    ap.add_argument("--validated", action="store_true",
                    help="only validated (a picture of moves not replayed fails)")
    ap.add_argument("--to", default=None,
                    help="outputs, comma-separated, each shape converted to each "
                         "(default: the shape's own, pgn or draughts-diag)")
    args = ap.parse_args()
    over = []
    kifu = os.path.abspath(args.kifu)
    sizes = [float(s) for s in args.sizes.split(",")]
    print("| shape | to | record | validated | ratio | `--no-validate` | ratio |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="kifu-memory-") as tmp:
        for name in args.shapes.split(","):
            make, src, own = SHAPES[name]
            for mb in sizes:
                record = make(int(mb * MB))
                path = os.path.join(tmp, "input")
                with open(path, "w") as f:
                    for _ in range(args.copies):
                        f.write(record + "\n")
                size = len(record.encode())
                for dst in (args.to.split(",") if args.to else [own]):
                    dst = own if dst == "own" else dst
                    row = [name, dst, f"{size / MB:.1f} MB"]
                    for extra in ([], ["--no-validate"])[:1 if args.validated else 2]:
                        rss, said = peak(kifu, src, dst, path,
                                         ["-j", str(args.jobs), "--max-record-size",
                                          args.limit, *args.flags.split(), *extra])
                        games = "game" if args.copies == 1 else "games"
                        if not said.startswith(f"converted {args.copies} {games}, 0 failed"):
                            print(f"  {name} {dst} {mb} MB {extra}: {said}", file=sys.stderr)
                            over.append(f"{name} {dst} {mb} MB {extra}: {said}")
                        if args.max_ratio is not None and \
                                rss > args.max_ratio * size * args.copies + args.plus * MB:
                            over.append(f"{name} {dst} {mb} MB {extra}: {rss / size:.1f}x "
                                        f"({rss / MB:.0f} MB)")
                        row += [f"{rss / MB:.0f} MB", f"{rss / size:.1f}x"]
                    print("| " + " | ".join(row) + " |", flush=True)
                os.unlink(path)
    if over:
        print("over the limit or failed: " + "; ".join(over), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
