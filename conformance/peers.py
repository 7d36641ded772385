#!/usr/bin/env python3
"""kifu over the test files of its peers: the conformance table of the README.

Usage:
  conformance/peers.py extract [--git PEER=GITDIR ...] [--mirrors DIR] OUT
  conformance/peers.py run [--kifu PATH] [--markdown] [--by-file] [--by-type] [--failures N] OUT [SOURCE ...]

`extract` copies each peer's test files (PGN, PDN, aagenielsen.dk JSON
records) out of a clone of its repository into OUT/<source>/, one folder per
source of the table. A peer's clone is the git directory given by
`--git PEER=GITDIR` (a bare clone is enough: `git clone --bare
https://github.com/OWNER/NAME`), else `DIR/OWNER+NAME/repo`,
`DIR/OWNER/NAME.git` or `DIR/NAME.git` under `--mirrors`. It runs, per peer,
`git --git-dir GITDIR archive HEAD PATHS | tar -x`, and for python-chess
conformance/python_chess_cases.py over its test.py; the cases of
scalachess's Fixtures.scala (its triple-quoted strings) are written one
file each. A peer without a clone is left out and said.

`run` converts every source folder under OUT with kifu (`kifu convert -v
--to jsonl DIR -o /dev/null`, the input format from each file's extension,
`--from aagenielsen-json` for the aagenielsen.dk records) and prints per
source: the files; the games kifu found; those it converted; `warned`, the
converted games with at least one warning; those it failed; and the peer's
count, the games the peer itself reads in the same files, where the peer can
be run here (python-chess, `import chess.pgn`; pydraughts, `import
draughts.PDN`; chess.js and chessops, with `node` and the npm packages where
NODE_PATH or ./node_modules has them; pgn-extract, the binary on PATH or at
$PGN_EXTRACT) or its tests state it (scalachess; aagenielsen.dk: each record
is a game the site played), else `n/a` and why. For every chess source
python-chess's count is given too. Then kifu's warnings by kind, and its
failures by class (the message with its moves, squares and numbers taken
out), with the first file, place and game of each (--failures N: N more).
--by-file lists the files where kifu's games and a peer's count differ;
--markdown prints the table as Markdown, as in the README.

--by-type, for a source of records (aagenielsen.dk's), prints a table per
game type (the record's AageGameTypeName, its entities decoded): the
records; those the rules replay (`replayed`, with or without a warning:
a capture or an end of the game where the record and the rules differ, a
capture count); of those, the ones with a warning (`warned`); those read
unchecked (`unchecked`: the rules as kifu knows them refuse a move,
`rules-refused`, or kifu does not know the type, `rules-unknown`); those
failed; the share replayed; and the type's most frequent reasons (the
moves the rules refuse, the failures), as classes. Types kifu refuses as
not tafl are listed apart, with their counts.

Nothing fetched is kept in the repository: only this script.
"""

import argparse
import collections
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# source: (peer, owner/name, paths in the repository, file extensions kept,
#          kifu's --from or None for the extension's, how the peer counts)
SOURCES = collections.OrderedDict([
    ("python-chess", ("python-chess", "niklasf/python-chess", ["data/pgn"], (".pgn",), None, "python-chess")),
    ("python-chess-tests", ("python-chess", "niklasf/python-chess", ["test.py"], (".pgn",), None, "python-chess")),
    ("scalachess", ("scalachess", "lichess-org/scalachess", ["test-kit/src/test/resources"], (".pgn",), None,
                    "scalachess's tests")),
    ("scalachess-fixtures", ("scalachess", "lichess-org/scalachess",
                             ["test-kit/src/test/scala/format/pgn/Fixtures.scala"], (".pgn",), None,
                             "scalachess's tests")),
    ("chess.js", ("chess.js", "jhlywa/chess.js", ["__tests__/pgn", "benchmarks"], (".pgn",), None, "chess.js")),
    ("chessops", ("chessops", "niklasf/chessops", ["data"], (".pgn",), None, "chessops")),
    ("pgn-extract", ("pgn-extract", "MichaelB7/pgn-extract", ["test/infield"], (".pgn",), None, "pgn-extract")),
    ("pgn4web", ("pgn4web", "hauva69/pgn4web", ["."], (".pgn",), None, None)),
    ("pdn-succeed", ("wiegerw/pdn", "wiegerw/pdn", ["games/succeed"], (".pdn",), None, "pydraughts")),
    ("pdn-fail", ("wiegerw/pdn", "wiegerw/pdn", ["games/fail"], (".pdn",), None, "pydraughts")),
    ("aagenielsen", ("aagenielsen.dk", "NeuroTafl/OpenTafl-Python", ["AageNielsen/AageNielsenData/GameJSONData"],
                     (".json",), "aagenielsen-json", "records")),
])

# Why a peer has no count (the note under the table).
NO_COUNT = {
    "pgn4web": "pgn4web reads PGN in a browser page; its files come with no count",
    "pydraughts": "pydraughts is not importable (pip install pydraughts)",
    "python-chess": "python-chess is not importable (pip install chess)",
    "chess.js": "node or the chess.js npm package is missing (npm install chess.js)",
    "chessops": "node or the chessops npm package is missing (npm install chessops)",
    "pgn-extract": "no pgn-extract binary on PATH or at $PGN_EXTRACT",
}


# ---------------------------------------------------------------- extract

def git_dir(repo, gits, mirrors):
    owner, name = repo.split("/")
    if repo in gits:
        return gits[repo]
    if name in gits:
        return gits[name]
    for m in mirrors:
        for cand in (os.path.join(m, f"{owner}+{name}", "repo"), os.path.join(m, owner, f"{name}.git"),
                     os.path.join(m, f"{name}.git"), os.path.join(m, name)):
            if os.path.isdir(cand):
                return cand
    return None


def scala_cases(text):
    """The triple-quoted strings of a Scala file, by the val they belong to."""
    for m in re.finditer(r'val\s+(\w+)\s*=\s*"""(.*?)"""', text, re.S):
        yield m.group(1), m.group(2)


def extract(args):
    gits = dict(g.split("=", 1) for g in args.git)
    os.makedirs(args.out, exist_ok=True)
    for source, (peer, repo, paths, exts, _, _) in SOURCES.items():
        gitdir = git_dir(repo, gits, args.mirrors)
        if gitdir is None:
            print(f"{source}: no clone of {repo} (--git {repo}=GITDIR or --mirrors DIR): left out", file=sys.stderr)
            continue
        dest = os.path.join(args.out, source)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        head = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        if paths[0].endswith(".py"):
            with tempfile.NamedTemporaryFile("wb", suffix=".py", delete=False) as f:
                f.write(subprocess.run(["git", "--git-dir", gitdir, "show", f"HEAD:{paths[0]}"],
                                       capture_output=True, check=True).stdout)
            subprocess.run([sys.executable, os.path.join(HERE, "python_chess_cases.py"), f.name, dest], check=True,
                           stdout=subprocess.DEVNULL)
            os.unlink(f.name)
        elif paths[0].endswith(".scala"):
            text = subprocess.run(["git", "--git-dir", gitdir, "show", f"HEAD:{paths[0]}"], capture_output=True,
                                  check=True).stdout.decode("utf-8")
            # What scalachess's tests state: every fixture a test reads parses
            # (ParserTest and the others assert Right, none Left).
            tests = subprocess.run(["git", "--git-dir", gitdir, "grep", "-h", "-w", "-o", r"\w\+", "HEAD", "--",
                                    "test-kit/src/test/scala", f":!{paths[0]}"], capture_output=True,
                                   text=True).stdout.split()
            used = {word.split(":")[-1] for word in tests}
            expected = {}
            for name, case in scala_cases(text):
                with open(os.path.join(dest, f"{name}.pgn"), "w", encoding="utf-8") as f:
                    f.write(case)
                if name in used:
                    expected[f"{name}.pgn"] = 1
            with open(f"{dest}.expected.json", "w", encoding="utf-8") as f:  # beside, not read by kifu
                json.dump(expected, f, indent=0, sort_keys=True)
        else:
            if paths == ["."]:  # pgn4web: its files at the top and its live pages' files
                specs = [f":(glob,icase){d}*{e}" for d in ("", "live/") for e in exts]
            else:
                specs = [f":(glob,icase){p}/**/*{e}" for p in paths for e in exts]
            archive = subprocess.run(["git", "--git-dir", gitdir, "archive", "HEAD", "--", *specs],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
        with open(os.path.join(dest, "SOURCE.txt"), "w", encoding="utf-8") as f:
            f.write(f"{repo} {head} {' '.join(paths)}\n")
        n = sum(len([x for x in names if x.lower().endswith(exts)]) for _, _, names in os.walk(dest))
        print(f"{source}: {n} files from {repo} at {head[:12]}")
    return 0


# ---------------------------------------------------------------- kifu

LINE = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<level>error|warning)"
                  r"(?:\[(?P<kind>[a-z0-9-]+)\])?: (?:game (?P<game>\d+): )?(?P<text>.*)$")


def files_of(folder, exts):
    out = []
    for root, _, names in os.walk(folder):
        out += [os.path.join(root, n) for n in names if n.lower().endswith(exts)]
    return sorted(out)


def run_kifu(kifu, folder, fmt, by_file):
    """kifu over FOLDER: (converted, failed, warned games, warnings by kind,
    failures by (path, game), games by file where BY_FILE, else None, and
    each file's messages as (level, kind, text))."""
    with tempfile.TemporaryDirectory() as out_dir:
        cmd = [kifu, "convert", "-v", "--color", "never", "--to", "jsonl", folder]
        cmd += ["--out-dir", out_dir] if by_file else ["-o", os.devnull]
        if fmt:
            cmd[2:2] = ["--from", fmt]
        proc = subprocess.run(cmd, capture_output=True)
        per_file = None
        if by_file:  # a file's games: the lines of its output and its failures
            per_file = collections.Counter()
            for root, _, names in os.walk(out_dir):
                for name in names:
                    rel = os.path.splitext(os.path.relpath(os.path.join(root, name), out_dir))[0]
                    with open(os.path.join(root, name), "rb") as f:
                        per_file[rel] += sum(1 for line in f if line.strip())
    stderr = proc.stderr.decode("utf-8", errors="replace")
    converted = failed = None
    warned, kinds, errors = set(), collections.Counter(), {}
    messages = collections.defaultdict(list)
    for line in stderr.splitlines():
        if line.startswith("converted "):
            words = line.replace(",", "").split()
            converted, failed = int(words[1]), int(words[3])
            continue
        m = LINE.match(line)
        if not m:
            continue
        # A message of no game is the file's: its game where a file is one record
        # (aagenielsen.dk's), else of no game (text between games, no games at all).
        key = (m["path"], int(m["game"] or 1))
        messages[m["path"]].append((m["level"], m["kind"], m["text"]))
        if m["level"] == "warning":
            kinds[m["kind"] or "other"] += 1
            if m["game"] or fmt == "aagenielsen-json":
                warned.add(key)
        else:
            errors[key] = (m["line"], m["col"], m["text"])
    if converted is None:
        raise SystemExit(f"peers: kifu printed no summary over {folder} (exit {proc.returncode}): "
                         f"{stderr.strip()[-300:]}")
    if per_file is not None:
        for path, _ in errors:
            per_file[os.path.splitext(os.path.relpath(path, folder))[0]] += 1
    return converted, failed, len(warned - errors.keys()), kinds, errors, per_file, messages


def error_class(text):
    """A failure's message without its moves, squares, numbers and quoted text."""
    text = re.sub(r"\(position:? [^)]*\)", "", text)
    text = re.sub(r"`[^`]*`", "`…`", text)
    text = re.sub(r"\b\d+(\.\.\.|\.)\s*\S+", "MOVE", text)
    text = re.sub(r"\b[a-z]\d{1,2}\b", "SQ", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return text.strip()


# ---------------------------------------------------------------- peers
#
# Each counter gives the games the peer reads in each file ({path: games}),
# or None where the peer cannot be run here.

def count_python_chess(files):
    try:
        sys.path.insert(0, HERE)
        sys.dont_write_bytecode = True  # no __pycache__ in the checkout
        import pgn  # conformance/pgn.py, which needs python-chess
    except (ImportError, SystemExit):
        return None
    counts = {}
    for path in files:  # the games python-chess reads without an error
        with open(path, "rb") as f:
            counts[path] = sum(1 for _, _, clean in pgn.read_all(pgn.decode(f.read())) if clean)
    return counts


PYDRAUGHTS = r"""
import json, logging, sys
logging.disable(logging.CRITICAL)
from draughts.PDN import PDNReader
counts = {}
for path in json.load(sys.stdin):
    try:
        counts[path] = len(PDNReader(filename=path).games)
    except Exception:  # the peer refuses the file: none of its games
        counts[path] = 0
print(json.dumps(counts))
"""


def count_pydraughts(files):
    """pydraughts' PDNReader, under PYTHONHASHSEED=0: it reads some files or
    not by the order of a set (40Camp.DamaInternazionaleAssoluto.pdn of
    wiegerw/pdn: 44 games or none, run to run)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, "-c", PYDRAUGHTS], input=json.dumps(files), capture_output=True,
                          text=True, env=env)
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.splitlines()[-1])


NODE = {
    # chess.js reads one game a call: the file's games, cut before a tag after a blank line.
    "chess.js": r"""
const {Chess} = require('chess.js'); const fs = require('fs');
const counts = {};
for (const path of JSON.parse(fs.readFileSync(0, 'utf8'))) {
  const text = fs.readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  counts[path] = 0;
  for (const game of text.split(/\r?\n\s*\r?\n(?=\s*\[)/)) {
    if (!game.trim()) continue;
    try { new Chess().loadPgn(game); counts[path]++; } catch (e) {}
  }
}
console.log(JSON.stringify(counts));
""",
    # chessops: the games parsePgn finds whose main line it replays to the end.
    "chessops": r"""
const {parsePgn, startingPosition} = await import('chessops/pgn');
const {parseSan} = await import('chessops/san');
const fs = await import('fs');
const counts = {};
for (const path of JSON.parse(fs.readFileSync(0, 'utf8'))) {
  counts[path] = 0;
  for (const game of parsePgn(fs.readFileSync(path, 'utf8'))) {
    const pos = startingPosition(game.headers);
    if (pos.isErr) continue;
    let p = pos.value, ok = true;
    for (const node of game.moves.mainline()) {
      const move = parseSan(p, node.san);
      if (!move) { ok = false; break; }
      p.play(move);
    }
    if (ok) counts[path]++;
  }
}
console.log(JSON.stringify(counts));
""",
}


def count_node(peer, files):
    """chess.js or chessops under node, the npm package found by NODE_PATH or in ./node_modules."""
    if not shutil.which("node"):
        return None
    cmd = ["node", "-e", NODE[peer]] if peer == "chess.js" else ["node", "--input-type=module", "-e", NODE[peer]]
    env = dict(os.environ)
    env["NODE_PATH"] = os.pathsep.join(p for p in (env.get("NODE_PATH"), os.path.abspath("node_modules")) if p)
    proc = subprocess.run(cmd, input=json.dumps(files), capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.splitlines()[-1])


def count_pgn_extract(files):
    binary = os.environ.get("PGN_EXTRACT") or shutil.which("pgn-extract")
    if not binary:
        return None
    counts = {}
    for path in files:  # pgn-extract says "N games matched out of M." of the games it reads whole
        proc = subprocess.run([binary, "-o", os.devnull, path], capture_output=True)
        m = re.search(r"(\d+) games? matched out of (\d+)", proc.stderr.decode("utf-8", errors="replace"))
        counts[path] = int(m.group(1)) if m else 0
    return counts


def count_scalachess(files):
    """What scalachess's tests state: for its fixtures, the ones a test parses
    (OUT/scalachess-fixtures.expected.json, written by extract); for its resources, the games of its
    tiebreak tests (tiebreak/Helper.scala cuts a file at its blank lines)."""
    counts = {}
    for path in files:
        expected = f"{os.path.dirname(path)}.expected.json"
        if os.path.exists(expected):
            with open(expected, encoding="utf-8") as f:
                stated = json.load(f)
            counts[path] = stated.get(os.path.basename(path), 0)
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            counts[path] = sum(1 for block in f.read().split("\n\n") if block.strip())
    return counts


def count_records(files):
    """aagenielsen.dk's records: the files that are a record of a game the site played."""
    counts = {}
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError):
            record = None
        counts[path] = int(isinstance(record, dict) and "AageGameTypeKey" in record)
    return counts


COUNTERS = {
    "python-chess": count_python_chess,
    "pydraughts": count_pydraughts,
    "chess.js": lambda files: count_node("chess.js", files),
    "chessops": lambda files: count_node("chessops", files),
    "pgn-extract": count_pgn_extract,
    "scalachess's tests": count_scalachess,
    "records": count_records,
}


def run(args):
    rows, failures, details, by_types = [], [], [], []
    sources = args.sources or [s for s in SOURCES if os.path.isdir(os.path.join(args.out, s))]
    for source in sources:
        if source not in SOURCES:
            print(f"peers: no source {source} (the sources: {', '.join(SOURCES)})", file=sys.stderr)
            return 2
        peer, repo, _, exts, fmt, how = SOURCES[source]
        folder = os.path.join(args.out, source)
        files = files_of(folder, exts)
        converted, failed, warned, kinds, errors, per_file, messages = run_kifu(args.kifu, folder, fmt,
                                                                               args.by_file)
        if args.by_type and how == "records":
            by_types.append((source, by_type(files, messages)))
        counts = COUNTERS[how](files) if how else None
        note = None if counts is not None else NO_COUNT.get(how or peer)
        chess = (counts if how == "python-chess" else count_python_chess(files)) if exts == (".pgn",) else None
        rows.append((source, repo, len(files), converted + failed, converted, warned, failed,
                     None if counts is None else sum(counts.values()), how, note,
                     None if chess is None else sum(chess.values())))
        for (path, game), (line, col, text) in sorted(errors.items()):
            failures.append((source, error_class(text), f"{os.path.relpath(path, args.out)}:{line}:{col}", game,
                             text))
        if kinds:
            details.append(f"  {source}: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
        if per_file is not None:
            for path in files:
                mine = per_file.get(os.path.splitext(os.path.relpath(path, folder))[0], 0)
                theirs = [(how, counts.get(path, 0))] if counts else []
                theirs += [("python-chess", chess.get(path, 0))] if chess else []
                if any(n != mine for _, n in theirs):
                    details.append(f"  {os.path.relpath(path, args.out)}: kifu {mine} "
                                   + " ".join(f"{who} {n}" for who, n in theirs))
    print_table(rows, args.markdown)
    for source, types in by_types:
        print_by_type(source, types, args.markdown, args.failures)
    if details:
        print("\nkifu's warnings by kind" + (", and the files where a peer's count differs:" if args.by_file
                                               else ":"))
        print("\n".join(details))
    by_class = collections.OrderedDict()
    for source, cls, where, game, text in failures:
        by_class.setdefault((source, cls), []).append((where, game, text))
    if by_class:
        print("\nkifu's failures, by source and class (count, first place, first message):")
    for (source, cls), items in by_class.items():
        where, game, text = items[0]
        print(f"  {source}: {len(items)} x {cls}\n      {where} game {game}: {text}"[:400])
        for where, game, text in items[1:args.failures + 1]:
            print(f"      {where} game {game}: {text}"[:300])
    return 0


# Warnings that leave a record's moves unchecked.
UNCHECKED = ("rules-refused", "rules-unknown")


def record_type(path):
    """A record's game type: (its AageGameTypeName, entities decoded, blanks trimmed; its key)."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        return html.unescape(record["AageGameTypeName"]).strip(), str(record.get("AageGameTypeKey", ""))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "(not a record)", ""


def reason(text):
    """Why the rules refuse a record's move, or why it failed, as a class."""
    text = re.sub(r"^the rules of .*? as kifu knows them refuse a move \((.*)\): the moves are read without "
                  r"being checked$", r"\1", text)
    return error_class(text)


def by_type(files, messages):
    """Per game type (by name, and by key where two share a name): [records, replayed, warned,
    unchecked, failed, reasons, refused], where refused says the type is not a tafl game (kifu's
    error of kind variant-unplayed)."""
    typed = {path: record_type(path) for path in files}
    keys = collections.defaultdict(set)
    for name, key in typed.values():
        keys[name].add(key)
    types = collections.OrderedDict()
    for path in files:
        name, key = typed[path]
        if len(keys[name]) > 1:  # two types of one name (Tyr 13x13): told apart by key
            name = f"{name} (key {key})"
        row = types.setdefault(name, [0, 0, 0, 0, 0, collections.Counter(), False])
        row[0] += 1
        said = messages.get(path, [])
        errors = [text for level, _, text in said if level == "error"]
        refused = [text for level, kind, text in said if kind in UNCHECKED]
        if errors:
            row[4] += 1
            row[6] |= any(level == "error" and kind == "variant-unplayed" for level, kind, _ in said)
            row[5][reason(errors[0])] += 1
        elif refused:
            row[3] += 1
            row[5][reason(refused[0])] += 1
        else:
            row[1] += 1
            row[2] += bool(said)
    return types


def print_grid(heads, table, markdown):
    """Rows of text under their heads: a markdown table, or columns aligned."""
    if markdown:
        print("| " + " | ".join(heads) + " |")
        print("|---|" + "---:|" * (len(heads) - 1))
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(r[i]) for r in table + [heads]) for i in range(len(heads))]
        for r in [heads] + table:
            print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))


def print_by_type(source, types, markdown, more):
    """The table of game types of a source of records, the most records first."""
    heads = ["game type", "records", "replayed", "warned", "unchecked", "failed", "replayed %"]
    tafl = sorted(((n, r) for n, r in types.items() if not r[6]), key=lambda x: (-x[1][0], x[0]))
    total = [sum(r[i] for _, r in tafl) for i in range(5)]
    table = [[n, *map(str, r[:5]), f"{100 * r[1] / r[0]:.1f}"] for n, r in tafl]
    table.append(["all tafl", *map(str, total), f"{100 * total[1] / max(total[0], 1):.2f}"])
    print(f"\n{source}, by game type:")
    print_grid(heads, table, markdown)
    under = [(n, r) for n, r in tafl if r[1] < 0.99 * r[0]]
    print(f"\n{len(tafl) - len(under)} of {len(tafl)} tafl types replay at least 99% of their records; "
          f"{total[1]} of {total[0]} records replay")
    refused = sorted((n, r[0]) for n, r in types.items() if r[6])
    if refused:
        print("refused, not tafl: " + ", ".join(f"{n} ({k})" for n, k in refused))
    if under:
        print("\nthe types under 99%, and why (count, reason):")
    for name, r in under:
        print(f"  {name}: {r[1]} of {r[0]} replayed ({100 * r[1] / r[0]:.1f}%)")
        for text, n in r[5].most_common(3 + more):
            print(f"      {n} x {text}"[:300])


def print_table(rows, markdown):
    heads = ["source", "files", "games", "converted", "warned", "failed", "peer's count", "python-chess"]
    table = []
    notes = []
    for source, repo, files, games, converted, warned, failed, count, how, note, chess in rows:
        if count is None:
            peer = "n/a"
            if note:
                notes.append(f"{source}: {note}.")
        else:
            peer = f"{count} ({how})"
        label = f"{source} ({repo})"
        table.append([label, files, games, converted, warned, failed, peer,
                      "" if chess is None else chess])
    table = [[str(c) for c in r] for r in table]
    print_grid(heads, table, markdown)
    for n in notes:
        print(f"\n{n}" if markdown else n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="copy the peers' test files out of their clones")
    ex.add_argument("--git", action="append", default=[], metavar="PEER=GITDIR",
                    help="a peer's git directory, PEER its owner/name or name")
    ex.add_argument("--mirrors", action="append", default=[], metavar="DIR",
                    help="a folder of clones (OWNER+NAME/repo, OWNER/NAME.git or NAME.git)")
    ex.add_argument("out")
    rn = sub.add_parser("run", help="kifu over the extracted files: the table")
    rn.add_argument("--kifu", default=os.environ.get("KIFU", "target/release/kifu"))
    rn.add_argument("--markdown", action="store_true", help="the table as Markdown, as in the README")
    rn.add_argument("--failures", type=int, default=0, metavar="N", help="list N more failures of each class")
    rn.add_argument("--by-file", action="store_true",
                    help="list the files where kifu's games and a peer's count differ")
    rn.add_argument("--by-type", action="store_true",
                    help="for a source of records (aagenielsen.dk's), a table per game type")
    rn.add_argument("out")
    rn.add_argument("sources", nargs="*", help="only these sources (folders under OUT)")
    args = ap.parse_args()
    if args.command == "extract":
        return extract(args)
    if not os.access(args.kifu, os.X_OK):
        print(f"peers: no kifu binary at {args.kifu} (cargo build --release)", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
