"""Reads kifu's parquet tables with DuckDB, pandas and pyarrow beside its
csv tables, for tests/conformance/parquet.rs.

Usage: python3 parquet_check.py CSV_DIR PARQUET_DIR

Prints one JSON object: for each table, its row count as each reader gives
it (DuckDB over the csv and over the parquet file, pandas, pyarrow), the
rows of each side that the other lacks (every column compared as text),
the parquet columns' types; then a few joins over each side, and the
encodings and compression of the `move` column. The Rust test asserts.
"""

import json
import sys

import duckdb
import pandas
import pyarrow.parquet as pq

TABLES = ["games", "tags", "moves"]

csv_dir, pq_dir = sys.argv[1], sys.argv[2]
con = duckdb.connect()


def csv(table):
    # Every column as text; an empty unquoted field is NULL, `""` the
    # empty string, as kifu writes them.
    return (
        f"read_csv('{csv_dir}/{table}.csv', header = true, all_varchar = true, "
        f"allow_quoted_nulls = false, quote = '\"', escape = '\"', "
        f"delim = ',', new_line = '\\r\\n')"
    )


def parquet(table):
    return f"read_parquet('{pq_dir}/{table}.parquet')"


out = {"tables": {}, "joins": {}}
for table in TABLES:
    types = con.sql(f"DESCRIBE SELECT * FROM {parquet(table)}").fetchall()
    # The parquet values as the csv tables spell them: booleans 1 and 0.
    as_text = ", ".join(
        f"CASE WHEN \"{name}\" THEN '1' WHEN NOT \"{name}\" THEN '0' END"
        if ty == "BOOLEAN"
        else f'CAST("{name}" AS VARCHAR)'
        for name, ty, *_ in types
    )
    names = ", ".join(f'"{name}"' for name, *_ in types)
    a = f"SELECT {as_text} FROM {parquet(table)}"
    b = f"SELECT {names} FROM {csv(table)}"
    count = lambda q: con.sql(f"SELECT count(*) FROM ({q})").fetchall()[0][0]
    out["tables"][table] = {
        "csv": count(b),
        "duckdb": count(f"SELECT * FROM {parquet(table)}"),
        "pandas": len(pandas.read_parquet(f"{pq_dir}/{table}.parquet")),
        "pyarrow": pq.read_table(f"{pq_dir}/{table}.parquet").num_rows,
        "only_parquet": count(f"({a}) EXCEPT ALL ({b})"),
        "only_csv": count(f"({b}) EXCEPT ALL ({a})"),
        "types": {name: ty for name, ty, *_ in types},
    }

JOINS = {
    # Moves per family, through games.
    "moves_per_family": "SELECT g.family, count(*) FROM {moves} m JOIN {games} g "
    "USING (game_id) GROUP BY 1 ORDER BY 1",
    # Tags per game, through games, and the games with a White tag.
    "tags_per_game": "SELECT g.game_id, count(t.name) FROM {games} g LEFT JOIN {tags} t "
    "USING (game_id) GROUP BY 1 ORDER BY 1",
    # Each game's main-line moves against its plies column.
    "plies_match": "SELECT count(*) FROM {games} g WHERE CAST(g.plies AS BIGINT) = "
    "(SELECT count(*) FROM {moves} m WHERE m.game_id = g.game_id AND m.variation IS NULL "
    "AND m.ir IS NOT NULL)",
    # The first move of every game, by source and number.
    "first_moves": "SELECT g.source, CAST(g.game AS BIGINT), m.move FROM {games} g JOIN {moves} m "
    "USING (game_id) WHERE CAST(m.seq AS BIGINT) = 1 ORDER BY 1, 2",
}
for name, q in JOINS.items():
    sides = {}
    for side, of in [("csv", csv), ("parquet", parquet)]:
        rows = con.sql(q.format(**{t: of(t) for t in TABLES})).fetchall()
        sides[side] = [[str(v) for v in row] for row in rows]
    out["joins"][name] = sides

meta = pq.ParquetFile(f"{pq_dir}/moves.parquet").metadata
names = [meta.schema.column(i).name for i in range(meta.num_columns)]
col = meta.row_group(0).column(names.index("move"))
out["move"] = {
    "encodings": list(col.encodings),
    "compression": col.compression,
    "row_groups": meta.num_row_groups,
}
print(json.dumps(out))
