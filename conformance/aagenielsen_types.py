#!/usr/bin/env python3
"""What aagenielsen.dk's games show of each game type: the start position
(every square's first event over the type's games: a piece of the mover's
side moves from it, a piece of the other side is captured on it, or a piece
moves to or over it, empty; the majority of the games decides) and what the
king does (whether he ends a game won by the defenders on a corner or on an
edge, whether he stands on an edge and play goes on, whether another piece
stops on the throne or a corner).

`conformance/aagenielsen_types.py DIR...` (the folders of game-*.json; the
data stays outside the repository) prints, per type, its key, name, board,
game count, the start position as an OpenTafl position record (rank 1
first) and the observations; kifu's table of types
(src/family/hnefatafl/aagenielsen_types.txt) was made from this output and
the site's names, then checked by `conformance/peers.py run --by-type`."""
import collections, glob, html, json, os, re, sys

def sq(s):
    m = re.fullmatch(r"([a-s])(\d{1,2})", s)
    return (ord(m.group(1)) - 97, int(m.group(2)) - 1) if m else None

def parse(m):
    m = m.strip()
    legs, _, caps = m.partition("x")
    caps = [sq(c) for c in caps.split("x") if c] if caps else []
    if "-" in legs:
        pts = [sq(p) for p in legs.split("-")]
    else:
        i = next((i for i, ch in enumerate(legs) if i > 0 and ch.isalpha()), None)
        pts = [sq(legs[:i]), sq(legs[i:])] if i else [None]
    if None in pts or None in caps or len(pts) < 2:
        return None
    return pts, caps

types = collections.defaultdict(list)
for d in sys.argv[1:]:
    for f in glob.glob(os.path.join(d, "*.json")):
        j = json.load(open(f, encoding="utf-8"))
        types[(j.get("AageGameTypeKey"), j["AageGameTypeName"].strip())].append(j)

for (key, name), games in sorted(types.items(), key=lambda x: -len(x[1])):
    m = re.search(r"(\d+)x(\d+)", name)
    if not m or m.group(1) != m.group(2):
        print(f"{key}\t{html.unescape(name)}\tnot square\t{len(games)}")
        continue
    dim = int(m.group(1))
    votes = collections.defaultdict(collections.Counter)
    obs = collections.Counter()
    centre = (dim // 2, dim // 2)
    corners = {(0, 0), (0, dim - 1), (dim - 1, 0), (dim - 1, dim - 1)}
    edge = lambda s: s[0] in (0, dim - 1) or s[1] in (0, dim - 1)
    seen = set()
    for g in games:
        side = "t" if g.get("WhoMovedFirst", "black") == "black" else "T"
        obs["first " + side] += 1
        board, known = {}, set()
        king = centre
        moves = [mv for mv in g["Moves"] if mv not in ("resigned", "timeout", "nox")]
        for n, mv in enumerate(moves):
            p = parse(mv)
            if p is None:
                obs["unparsed"] += 1
                break
            pts, caps = p
            if any(not (0 <= a < dim and 0 <= b < dim) for a, b in pts + caps):
                obs["off board"] += 1
                break
            def learn(s, what):
                if s not in known:
                    known.add(s)
                    votes[s][what] += 1
                    board[s] = what
            learn(pts[0], side)
            for a, b in zip(pts, pts[1:]):
                df, dr = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
                s = a
                while s != b:
                    s = (s[0] + df, s[1] + dr)
                    learn(s, ".")
            for c in caps:
                learn(c, "T" if side == "t" else "t")
            piece = board.get(pts[0], ".")
            board[pts[0]] = "."
            board[pts[-1]] = piece
            for c in caps:
                board[c] = "."
            is_king = pts[0] == king
            if is_king:
                king = pts[-1]
                last = n == len(moves) - 1
                if pts[-1] in corners:
                    obs["king ends on corner" if last else "king on corner, play on"] += 1
                elif edge(pts[-1]):
                    obs["king ends on edge" if last else "king on edge, play on"] += 1
            elif pts[-1] == centre:
                obs["other stops on throne"] += 1
            elif pts[-1] in corners:
                obs["other stops on corner"] += 1
            side = "T" if side == "t" else "t"
        if moves and g.get("WhoWon") == "Black" and len(moves) % 2 == 1 and moves == [mv for mv in g["Moves"] if mv != "nox"]:
            # The attackers' last move won: what closes on the king.
            kf, kr = king
            around = 0
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                f, r = kf + df, kr + dr
                if not (0 <= f < dim and 0 <= r < dim):
                    continue
                if board.get((f, r)) == "t" or ((f, r) == centre and board.get((f, r), ".") == "."):
                    around += 1
            obs[f"king taken by {around}"] += 1
    # A second layout, where the games split on squares (the site has
    # used two under one name): the minority's value on each such square.
    flips = {}
    for s_, v in votes.items():
        top = v.most_common(2)
        if len(top) == 2 and top[1][1] >= 5 and top[1][1] * 100 >= 15 * sum(v.values()):
            flips[s_] = top[1][0]
    rows, alt_rows = [], []
    for layout, out in ((dict(), rows), (flips, alt_rows)):
        if out is alt_rows and not flips:
            break
        for r in range(dim):
            row, empty = "", 0
            for f in range(dim):
                v = votes[(f, r)].most_common(1)
                c = layout.get((f, r), v[0][0] if v else ".")
                if (f, r) == centre and c == "T":
                    c = "K"
                if c == ".":
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += c
            if empty:
                row += str(empty)
            out.append(row)
    unsure = sum(1 for s, v in votes.items() if len(v) > 1 and v.most_common(2)[1][1] * 4 > v.most_common(1)[0][1])
    alt = f"/{'/'.join(alt_rows)}/" if alt_rows else "-"
    print(f"{key}\t{html.unescape(name)}\t{dim}\t{len(games)}\t/{'/'.join(rows)}/\tunsure:{unsure}\t{dict(obs)}\t{alt}")
