#!/usr/bin/env python3
"""The jumps of aagenielsen.dk's records: per game type, the moves of two
squares over an adjacent piece, by the jumper (`t` an attacker, `T` a
defender, `K` the king) and the piece jumped (an enemy, a piece of the
jumper's own side, the king), and whether the record lists the jumped piece
as captured.

`conformance/aagenielsen_jumps.py DIR... [--types KEY,KEY...]` (the folders
of game-*.json; the data stays outside the repository) replays each record
from its type's first start position in kifu's table
(src/family/hnefatafl/aagenielsen_types.txt) by the moves' paths alone: the
listed captures are taken, nothing is judged by rules, and a record is
followed up to its first move no path explains (its square empty, its
path blocked, its end taken: a berserk leg the JSON leaves out, most
often). What the Old Tyr types' rules keys (`tj`, `kj`, `jo`) rest on, in
docs/hnefatafl.md."""
import collections, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "src", "family", "hnefatafl", "aagenielsen_types.txt")


def sq(s):
    m = re.fullmatch(r"([a-s])(\d{1,2})", s)
    return (ord(m.group(1)) - 97, int(m.group(2)) - 1) if m else None


def start_of(rules):
    """The board side, the first start position (square: letter) and who moves first."""
    entries = dict(e.split(":", 1) for e in rules.split(" | ")[0].split() if ":" in e)
    dim = int(entries["dim"])
    inverted = "starti" in entries
    rows = entries.get("start", entries.get("starti", "")).strip("/").split("/")
    cells = {}
    for i, row in enumerate(rows):
        rank = dim - 1 - i if inverted else i
        f = 0
        for tok in re.findall(r"\d+|[a-zA-Z]", row):
            if tok.isdigit():
                f += int(tok)
            else:
                cells[(f, rank)] = tok
                f += 1
    return dim, cells, entries.get("atkf", "y") == "y"


def parse(m):
    legs, _, caps = m.strip().partition("x")
    caps = [sq(c) for c in caps.split("x") if c]
    if "-" in legs:
        pts = [sq(p) for p in legs.split("-")]
    else:
        i = next((i for i, ch in enumerate(legs) if i > 0 and ch.isalpha()), None)
        pts = [sq(legs[:i]), sq(legs[i:])] if i else [None]
    return pts, caps


def main():
    args = sys.argv[1:]
    keys = None
    if "--types" in args:
        i = args.index("--types")
        keys = set(args[i + 1].split(","))
        del args[i:i + 2]
    table = {}
    for line in open(TABLE, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        key, name, rules = line.rstrip("\n").split("\t")
        if rules != "not tafl" and (keys is None or key in keys):
            table[key] = (name, rules)
    jumps = collections.defaultdict(collections.Counter)
    records = collections.Counter()
    for d in args:
        for path in glob.glob(os.path.join(d, "**", "game-*.json"), recursive=True):
            rec = json.load(open(path, encoding="utf-8"))
            key = str(rec.get("AageGameTypeKey"))
            if key not in table:
                continue
            records[key] += 1
            dim, cells, attackers = start_of(table[key][1])
            cells = dict(cells)
            for m in rec.get("Moves", []):
                if m in ("resigned", "timeout"):
                    continue
                pts, caps = parse(m)
                if len(pts) != 2 or None in pts or None in caps:
                    break
                (ff, fr), (tf, tr) = pts
                p = cells.get((ff, fr))
                if p is None or p.islower() != attackers or (tf, tr) in cells:
                    break
                if ff != tf and fr != tr:
                    break
                df, dr = (tf > ff) - (tf < ff), (tr > fr) - (tr < fr)
                n = abs(tf - ff) + abs(tr - fr)
                path = [(ff + k * df, fr + k * dr) for k in range(1, n)]
                over = [s for s in path if s in cells]
                if over:
                    if n != 2:
                        break
                    o = cells[over[0]]
                    whom = "king" if o == "K" else ("own" if o.islower() == p.islower() else "enemy")
                    jumper = "K" if p == "K" else ("t" if p.islower() else "T")
                    taken = "jumped captured" if over[0] in caps else "jumped kept"
                    jumps[key][(jumper, whom, taken)] += 1
                del cells[(ff, fr)]
                cells[(tf, tr)] = p
                for c in caps:
                    cells.pop(c, None)
                attackers = not attackers
    for key in sorted(records, key=lambda k: -records[k]):
        name = table[key][0]
        found = ", ".join(f"{j} over {w} ({t}) {n}" for (j, w, t), n in sorted(jumps[key].items()))
        print(f"{key}\t{name}\t{records[key]} records\t{found or 'no jumps'}")


if __name__ == "__main__":
    main()
