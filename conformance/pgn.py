#!/usr/bin/env python3
"""kifu against python-chess over folders of PGN files: the agreement table.

Usage: conformance/pgn.py [--kifu PATH] [--details] DIR [DIR ...]

Every `*.pgn` file under each DIR is read twice:

- by python-chess (the peer), game by game with `chess.pgn.read_game`: a game
  is the peer's "standard" game when its board is standard chess or Chess960
  (not crazyhouse, atomic, ...), and "clean" when python-chess recorded no
  error for it (an illegal or ambiguous move, a bad FEN);
- by kifu: `kifu convert --from pgn --to pgn FILE`, whose output is read back
  with python-chess.

A game is identified by its main line (the moves as UCI, from its start
position). For each suite (the first folder level under DIR, or DIR itself)
the table gives: the files; the games python-chess reads; its clean standard
games; what kifu converted and failed; `agree`, the clean standard games whose
main line kifu wrote too; `peer split`, the clean standard games that are the
start of a game kifu wrote with the same tags, or with none (python-chess ended the game at
a blank line, a `%` line or a second comment, and read the rest as another
game); `peer empty`, the clean standard games of no move and no tag (stray
text between games, which kifu reports as text of no game); `missing`, the
other clean standard games kifu did not write (kifu's fault unless docs/chess.md,
"Conformance", says why python-chess is wrong); and
`extra`, the games kifu wrote that are no clean standard game of python-chess
(a game python-chess failed or split differently: where kifu read more).

Prints the table, then (with --details, or always for `missing`) one line per
disagreement with the file, the game's first tags and kifu's messages for that
file. Exits 1 when any game is missing, 0 otherwise, 2 on a usage problem.
Needs python-chess (`pip install chess`); nothing here is kept in the repo but
this script: fetch the suites (docs/chess.md, "Conformance").
"""

import argparse
import collections
import io
import logging
import os
import subprocess
import sys
import tempfile

try:
    import chess
    import chess.pgn
except ImportError:
    print("conformance: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def decode(data):
    """The text python-chess is given: UTF-8 (a BOM dropped), else Latin-1,
    as a user would open the file."""
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def main_line(game):
    return tuple(m.uci() for m in game.mainline_moves())


STANDARD = {"", "standard", "chess", "normal", "from position", "fromposition", "chess960", "chess 960",
            "960", "fischerandom", "fischerrandom", "fischer random", "freestyle"}


def is_standard(game):
    """Standard chess or Chess960, whatever the Variant tag's spelling."""
    if game.headers.get("Variant", "").strip().lower() in STANDARD:
        return True
    try:
        return game.board().uci_variant == "chess"
    except ValueError:
        return False


def read_all(text):
    """Every game python-chess reads from TEXT: (game, standard, clean)."""
    handle = io.StringIO(text)
    games = []
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except Exception as e:  # a peer crash is the peer's error
            print(f"conformance: python-chess raised {e!r}", file=sys.stderr)
            break
        if game is None:
            break
        standard = is_standard(game)
        games.append((game, standard, not game.errors))
    return games


def first_tags(game):
    h = game.headers
    return " ".join(f'{k}="{h[k]}"' for k in ("White", "Black", "Date", "Round") if h.get(k, "?") != "?")


def roster(game):
    """The game's tags of the seven-tag roster that are not placeholders."""
    h = game.headers
    return tuple((k, h[k]) for k in ("Event", "Site", "Date", "Round", "White", "Black")
                 if h.get(k, "?").strip("?. ") != "")


def run_kifu(kifu, path):
    with tempfile.NamedTemporaryFile(suffix=".pgn", delete=False) as out:
        out_path = out.name
    try:
        proc = subprocess.run(
            [kifu, "convert", "--from", "pgn", "--to", "pgn", "--color", "never", "-v", path, "-o", out_path],
            capture_output=True,
        )
        with open(out_path, "rb") as f:
            written = f.read().decode("utf-8")
    finally:
        os.unlink(out_path)
    stderr = proc.stderr.decode("utf-8", errors="replace")
    converted = failed = 0
    for line in stderr.splitlines():
        if line.startswith("converted "):
            words = line.replace(",", "").split()
            converted = int(words[1])
            failed = int(words[3])
    return converted, failed, written, stderr, proc.returncode


def suite_of(root, path):
    rel = os.path.relpath(path, root)
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else os.path.basename(os.path.normpath(root))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kifu", default=os.environ.get("KIFU", "target/release/kifu"))
    ap.add_argument("--details", action="store_true", help="list the extra games too")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    if not os.access(args.kifu, os.X_OK):
        print(f"conformance: no kifu binary at {args.kifu} (cargo build --release)", file=sys.stderr)
        return 2

    rows = collections.OrderedDict()
    notes = []
    for root in args.dirs:
        files = []
        for dirpath, _, names in os.walk(root):
            files += [os.path.join(dirpath, n) for n in names if n.lower().endswith(".pgn")]
        for path in sorted(files):
            with open(path, "rb") as f:
                peer = read_all(decode(f.read()))
            converted, failed, written, stderr, rc = run_kifu(args.kifu, path)
            if rc not in (0, 1):
                notes.append(f"{path}: kifu exit {rc}: {stderr.strip().splitlines()[-1:]}")
            mine = [g for g, _, _ in read_all(written)]
            row = rows.setdefault(
                suite_of(root, path),
                collections.Counter(),
            )
            row["files"] += 1
            row["peer"] += len(peer)
            row["converted"] += converted
            row["failed"] += failed
            wanted = collections.Counter(main_line(g) for g, std, ok in peer if std and ok)
            got = collections.Counter(main_line(g) for g in mine)
            row["clean"] += sum(wanted.values())
            agree = wanted & got
            row["agree"] += sum(agree.values())
            missing = wanted - got
            extra = got - wanted
            row["extra"] += sum(extra.values())
            for g, std, ok in peer:
                line = main_line(g)
                if std and ok and missing[line] > 0:
                    missing[line] -= 1
                    if not line and not roster(g):
                        row["peer empty"] += 1
                        continue
                    if any((roster(k) == roster(g) or not roster(g)) and main_line(k)[:len(line)] == line
                           for k in mine):
                        row["peer split"] += 1
                        continue
                    row["missing"] += 1
                    errs = [l for l in stderr.splitlines() if "error" in l][:3]
                    notes.append(f"missing {path}: {first_tags(g)} ({len(line)} plies) kifu: {errs}")
            if args.details:
                for g in mine:
                    line = main_line(g)
                    if extra[line] > 0:
                        extra[line] -= 1
                        notes.append(f"extra   {path}: {first_tags(g)} ({len(line)} plies)")

    cols = ["files", "peer", "clean", "converted", "failed", "agree", "peer split", "peer empty", "missing",
            "extra"]
    heads = ["suite", "files", "python-chess games", "clean standard", "kifu converted", "kifu failed",
             "agree", "peer split", "peer empty", "missing", "extra"]
    table = [heads] + [[name] + [str(row[c]) for c in cols] for name, row in rows.items()]
    total = collections.Counter()
    for row in rows.values():
        total.update(row)
    table.append(["total"] + [str(total[c]) for c in cols])
    widths = [max(len(r[i]) for r in table) for i in range(len(heads))]
    for r in table:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    for n in notes:
        print(n)
    return 1 if total["missing"] else 0


if __name__ == "__main__":
    sys.exit(main())
