#!/usr/bin/env python3
"""One long game, to time kifu on long records (docs/benchmarks.md, "Long records").

Usage: tools/long-record.py NOTATION BYTES OUT [MARK]

NOTATION is a family's own notation (pgn, draughts-num, tafl, coerceo, tenjiku): pieces
go back and forth, with a comment after each move (and a variation every third move in
chess), until the record holds BYTES bytes. MARK, when given, is put before every fifth
space past the tags (`}`: a stray brace, a warning each; `(a remark)`: text in
parentheses read as a comment, a warning each).
"""
import sys


def chess(i):
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    s = f"{i + 1}. {cycle[(2 * i) % 4]} {{c{i}}} {cycle[(2 * i + 1) % 4]} $1 "
    if i % 3 == 0:
        s += f"({i + 1}... Nc6 {{v}}) "
    return s


def pair(first, second):
    return lambda i: f"{i + 1}. {first[i % 2]} {{c}} {second[i % 2]} "


def coerceo(i):
    a, b = ("3c-3e", "4b-3d") if i % 2 == 0 else ("3e-3c", "3d-4b")
    return f"{2 * i + 1}# {a} {{c}} {2 * i + 2}# {b} "


GAMES = {
    "pgn": ('[Event "long"]\n[Result "*"]\n\n', chess),
    "draughts-num": (
        '[Event "long"]\n[GameType "20"]\n[FEN "W:WK46:BK5"]\n\n',
        pair(("46-41", "41-46"), ("5-10", "10-5")),
    ),
    "tafl": (
        '[Event "long"]\n[Rules "brandubh"]\n\n',
        pair(("d2-e2", "e2-d2"), ("c4-c5", "c5-c4")),
    ),
    "coerceo": ('[Event "long"]\n\n', coerceo),
    "tenjiku": (
        '[Event "long"]\n[SetUp "1"]\n[FEN "8,k,7/16/11,+P,4/6,p,2,g,6/6,Ln,9/8,N,6,s/'
        '16/8,P,1,FiD,5/16/16/10,FiD,5/16/16/16/16/7,K,8 b"]\n\n',
        pair(("K-8o", "K-9p"), ("K-8b", "K-8a")),
    ),
}


def main():
    notation, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    mark = sys.argv[4] if len(sys.argv) > 4 else None
    head, unit = GAMES[notation]
    parts, n, i = [head], len(head), 0
    while n < size:
        u = unit(i) + ("\n" if i % 8 == 7 else "")
        parts.append(u)
        n += len(u)
        i += 1
    parts.append("*\n")
    body = "".join(parts[1:])
    if mark is not None:
        words = body.split(" ")
        body = " ".join(
            w if k == 0 or k % 5 else f"{mark} {w}" for k, w in enumerate(words)
        )
    with open(out, "w", encoding="utf-8") as f:
        f.write(head + body)


if __name__ == "__main__":
    main()
