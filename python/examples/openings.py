"""Results by opening: an archive read into kifu's tables, counted in pandas
and in DuckDB (README, "Results by opening, in pandas and DuckDB"). Run: python3 openings.py ARCHIVE...
(files, folders, zip archives; compressed files as they are)."""

import sys
import tempfile

import duckdb
import pandas as pd

import kifu

# 1. The archive as the three parquet tables (games, tags, moves), as
#    `kifu convert ARCHIVE --to parquet --out-dir DIR` writes them.
archive = sys.argv[1:] or ["corpus/chess/openings.pgn"]
tables = tempfile.mkdtemp()
done = kifu.convert(archive, tables, to="parquet", out_dir=True)
print(done["summary"])

# 2. pandas: each game's opening (its Opening tag up to a colon, so that
#    "Sicilian Defense: Najdorf Variation" counts as "Sicilian Defense";
#    else its ECO tag), and the results counted by opening, most played first.
games = pd.read_parquet(f"{tables}/games.parquet")
tags = pd.read_parquet(f"{tables}/tags.parquet")
first = tags.drop_duplicates(["game_id", "name"])  # a tag given twice: the first
openings = (
    first[first["name"] == "Opening"].set_index("game_id")["value"]
    .str.split(":").str[0].str.strip()
    .combine_first(first[first["name"] == "ECO"].set_index("game_id")["value"])
    .rename("opening")
)
by_opening = (
    games.join(openings, on="game_id")
    .fillna({"opening": "?", "result": "?"})
    .groupby(["opening", "result"]).size()
    .unstack(fill_value=0)
)
by_opening = by_opening.loc[by_opening.sum(axis=1).sort_values(ascending=False, kind="stable").index]
print(by_opening.to_string())

# 3. DuckDB: the same count, in SQL over the same files.
in_sql = duckdb.sql(f"""
    WITH tag AS (
        SELECT game_id, name, first(value ORDER BY position) AS value
        FROM '{tables}/tags.parquet' WHERE name IN ('ECO', 'Opening')
        GROUP BY game_id, name)
    SELECT coalesce(trim(split_part(op.value, ':', 1)), eco.value, '?') AS opening,
           coalesce(g.result, '?') AS result, count(*) AS games
    FROM '{tables}/games.parquet' g
    LEFT JOIN tag eco ON eco.game_id = g.game_id AND eco.name = 'ECO'
    LEFT JOIN tag op ON op.game_id = g.game_id AND op.name = 'Opening'
    GROUP BY ALL ORDER BY opening, result
""").df()
print(in_sql.to_string())

# The two agree, opening by opening and result by result.
from_pandas = by_opening.stack().rename("games").reset_index()
from_pandas = from_pandas[from_pandas["games"] > 0]
assert sorted(map(tuple, from_pandas.values.tolist())) == sorted(
    map(tuple, in_sql.values.tolist())
)
