#!/bin/sh
# Per game type of aagenielsen.dk, how kifu reads the site's JSON records:
# `conformance/aagenielsen.sh DIR...` (the folders of game-*.json files, e.g.
# AageNielsen/AageNielsenData/GameJSONData/{gamesJSON,CopenhagenGamesJSON} of
# github.com/NeuroTafl/OpenTafl-Python; KIFU names the binary, default
# target/release/kifu). Prints, per game type (its name as the records spell
# it): games; replayed by the rules without a warning; replayed with one
# (a capture or an end of the game where the record and the rules differ, a
# capture count, a square captured twice); read unchecked (the rules as kifu
# knows them refuse a move, `rules-refused`, or kifu does not know the type,
# `rules-unknown`); failed; the share replayed. Then the kinds of warnings
# and the moves the rules refuse, most frequent first. Game types kifu
# refuses as not tafl are listed apart. The data stays outside the repository.
set -eu
kifu=${KIFU:-target/release/kifu}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$kifu" convert -v -j 2 --from aagenielsen-json --to jsonl "$@" -o /dev/null 2>"$err" || true
python3 - "$err" "$@" <<'PY'
import collections, html, json, os, re, sys

err, dirs = sys.argv[1], sys.argv[2:]
kind = {}
for d in dirs:
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith(".json") and not f.startswith("_"):
                p = os.path.join(root, f)
                try:
                    kind[p] = html.unescape(json.load(open(p, encoding="utf-8"))["AageGameTypeName"]).strip()
                except Exception:
                    kind[p] = "(not a record)"
failed, warned, unchecked, why, warns, refused = {}, set(), set(), collections.Counter(), collections.Counter(), set()
line = re.compile(r"^(.*?\.json)(?::\d+:\d+)?: (error|warning)(?:\[([a-z-]+)\])?: (?:game \d+: )?(.*)$")
for l in open(err, encoding="utf-8", errors="replace"):
    m = line.match(l.rstrip("\n"))
    if not m:
        continue
    path, level, k, text = m.groups()
    if k == "other-format":
        continue
    if k in ("rules-refused", "rules-unknown"):
        unchecked.add(path)
    if level == "error" or k == "rules-refused":
        if level == "error":
            failed[path] = text
        if "is not a tafl game" in text and level == "error":
            refused.add(kind.get(path))
        else:
            short = re.sub(r"\(position.*", "", re.sub(r"^the rules of .*? refuse a move \(", "", text))
            short = re.sub(r"\b[a-s]\d{1,2}\b", "SQ", short)
            short = re.sub(r"^\d+(\.\.\.|\.) ", "", short)
            why[(kind.get(path), short.strip())] += 1
    if level == "warning":
        warned.add(path)
        warns[(kind.get(path), k or "other")] += 1
rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
for p, t in kind.items():
    r = rows[t]
    r[0] += 1
    if p in failed:
        r[4] += 1
    elif p in unchecked:
        r[3] += 1
    elif p in warned:
        r[2] += 1
    else:
        r[1] += 1
tot = [0, 0, 0, 0, 0]
print("| game type | games | replayed | replayed, warned | unchecked | failed | replayed |")
print("|---|---|---|---|---|---|---|")
for t, r in sorted(rows.items(), key=lambda x: (-x[1][0], x[0])):
    if t in refused:
        continue
    tot = [a + b for a, b in zip(tot, r)]
    print(f"| {t} | {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {100 * (r[1] + r[2]) / r[0]:.1f}% |")
print(f"| all tafl | {tot[0]} | {tot[1]} | {tot[2]} | {tot[3]} | {tot[4]} | {100 * (tot[1] + tot[2]) / max(tot[0], 1):.2f}% |")
print()
print("refused, not tafl:", ", ".join(f"{t} ({rows[t][0]})" for t in sorted(refused)))
print()
print("warnings (games), by type and kind:")
for (t, k), n in warns.most_common(40):
    print(f"  {n:6} {t}: {k}")
print()
print("moves the rules refuse (failed or read unchecked), by type and reason:")
for (t, w), n in why.most_common(60):
    print(f"  {n:6} {t}: {w}")
PY
