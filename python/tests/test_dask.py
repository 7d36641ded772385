"""kifu.dask (docs/python.md, "Beyond one machine"): the tables of a Dask cluster
equal one command-line run's, row for row, over several shards and over one
file cut into byte ranges. Run on a LocalCluster of two worker processes;
skipped where Dask is not installed (.ci/run installs it)."""

import gzip
import os
import pathlib
import shutil

import pytest

dask = pytest.importorskip("dask")
pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

import kifu  # noqa: E402
import kifu.dask  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
SHARED = pathlib.Path(os.environ.get("KIFU_SHARED", ROOT.parent / "shared"))
TWIC = SHARED / "corpus" / "chess" / "twic"

LINES = [
    ("B90", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"),
    ("C65", "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4"),
    ("D37", "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3 Be7 5. Bf4 O-O"),
    ("A04", "1. Nf3 {a comment, with \"quotes\"} c5 2. c4 (2. e4 d6) Nc6 $1"),
]
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]


def game(i, crlf=False):
    eco, moves = LINES[i % len(LINES)]
    result = RESULTS[i % len(RESULTS)]
    text = (
        f'[Event "Gen {i}"]\n[Site "?"]\n[Date "2024.01.{1 + i % 28:02}"]\n'
        f'[Round "{i}"]\n[White "W{i % 7}"]\n[Black "B{i % 5}"]\n'
        f'[Result "{result}"]\n[ECO "{eco}"]\n\n{moves} {result}\n\n'
    )
    return text.replace("\n", "\r\n") if crlf else text


def archive(n, start=0):
    """n games: repeated records (the same bytes far apart), a game that
    fails, text between games, CRLF lines and a byte-order mark inside (a
    concatenated file)."""
    parts = []
    for i in range(start, start + n):
        if i % 50 == 7:
            parts.append(game(3))  # the same record as game 3
        elif i % 97 == 11:
            parts.append(f'[Event "bad {i}"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n')
        elif i % 61 == 5:
            parts.append("{text that belongs to no game}\n\n" + game(i))
        elif i % 83 == 3:
            parts.append("\ufeff" + game(i))
        else:
            parts.append(game(i, crlf=i % 13 == 0))
    return "".join(parts)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
        memory_limit="2GiB",
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def cli_csv(paths, out):
    """One run of the command line over the inputs: the csv tables' text."""
    done = kifu.convert([str(p) for p in paths], str(out), to="csv", out_dir=True)
    texts = {
        t: (out / f"{t}.csv").read_bytes().decode("utf-8")
        for t in ("games", "tags", "moves")
    }
    return done, texts


def field(v):
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    v = str(v)
    if v == "" or any(c in v for c in ',"\r\n'):
        return '"' + v.replace('"', '""') + '"'
    return v


def as_csv(df):
    """A computed table as the command line writes its csv file."""
    rows = [",".join(df.columns)]
    values = df.astype(object).where(df.notna(), None)
    for row in values.itertuples(index=False):
        rows.append(",".join(field(v) for v in row))
    return "".join(r + "\r\n" for r in rows)


def check_equal(paths, tmp_path, **kw):
    done, want = cli_csv(paths, tmp_path / "cli")
    tables = kifu.dask.tables([str(p) for p in paths], **kw)
    got = dask.compute(*tables)
    for name, df in zip(("games", "tags", "moves"), got):
        assert as_csv(df) == want[name], name
    assert len(got[0]) == done["converted"]
    return tables, done


def test_shards_give_one_cli_runs_rows(client, tmp_path):
    a = tmp_path / "a.pgn"
    a.write_text(archive(120), newline="")
    b = tmp_path / "b.pgn"
    b.write_text(archive(80, start=100), newline="")  # games a has too
    c = tmp_path / "c.pgn.gz"
    c.write_bytes(gzip.compress(archive(60, start=20).encode()))
    (games, tags, moves), done = check_equal([CORPUS, a, b, c], tmp_path)
    assert done["failed"] > 0
    # One partition per input: a file of the corpus folder, a shard.
    assert games.npartitions == len(kifu.dask.parts([CORPUS, a, b, c]))
    ids = games["game_id"].compute()
    assert ids.is_unique and ids.str.endswith("-2").any()
    counts = kifu.dask.counts([CORPUS, a, b, c])
    assert (counts["converted"], counts["failed"]) == (done["converted"], done["failed"])


def test_one_file_cut_into_byte_ranges_gives_the_same_rows(client, tmp_path):
    big = tmp_path / "big.pgn"
    big.write_text("\ufeff" + archive(600), newline="")
    size = big.stat().st_size
    parts = kifu.dask.parts([big], blocksize=16 << 10)
    assert len(parts) > 5
    # The ranges cover the file exactly, each game in one of them.
    assert parts[0]["start"] == 0 and parts[-1]["end"] is None
    for p, q in zip(parts, parts[1:]):
        assert p["end"] == q["start"] and q["first"] == p["first"] + p["games"]
    assert parts[-1]["start"] < size
    assert sum(p["games"] for p in parts) == 600
    (games, _, _), _ = check_equal([big, CORPUS], tmp_path, blocksize=16 << 10)
    assert games.npartitions > len(parts)


def test_every_format_of_the_corpus_cut_before_each_game(client, tmp_path):
    # A blocksize of one byte: each game record of a plain file of a format
    # without a document (all but json and xml) starts a partition.
    files = len(kifu.dask.parts([CORPUS]))
    (games, _, _), done = check_equal([CORPUS], tmp_path, blocksize=1)
    assert games.npartitions > files + 20 and done["converted"] > 20


@pytest.mark.skipif(not TWIC.is_dir(), reason="the shared corpus is absent")
def test_the_shared_chess_archive_cut_into_ranges(client, tmp_path):
    files = sorted(TWIC.glob("*.pgn"))
    (games, _, _), done = check_equal(files, tmp_path, blocksize=512 << 10)
    assert games.npartitions > len(files) and done["converted"] > 1000


def test_to_parquet_writes_the_tables(client, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "g.pgn"
    src.write_text(archive(200), newline="")
    kifu.convert([str(src)], str(tmp_path / "cli"), to="parquet", out_dir=True)
    tables = kifu.dask.tables([str(src)], blocksize="8KiB")
    out = tmp_path / "dask"
    dask.compute(
        *[
            t.to_parquet(str(out / name), compute=False, write_index=False)
            for name, t in zip(("games", "tags", "moves"), tables)
        ]
    )
    for name in ("games", "tags", "moves"):
        want = pq.read_table(tmp_path / "cli" / f"{name}.parquet").to_pylist()
        got = pq.read_table(out / name).to_pylist()
        assert got == want, name


def test_the_types_are_the_parquet_tables(tmp_path):
    m = kifu.dask.meta()
    assert list(m) == ["games", "tags", "moves"]
    assert str(m["games"]["game"].dtype) == "int64"
    assert str(m["moves"]["ply"].dtype) == "Int64"
    assert str(m["moves"]["is_check"].dtype) == "boolean"
    assert m["tags"].columns.tolist() == ["game_id", "position", "name", "value"]


def test_bad_input_is_an_error_not_a_crash(tmp_path):
    with pytest.raises(OSError):
        kifu.dask.parts([tmp_path / "absent.pgn"])
    with pytest.raises(ValueError):
        kifu._kifu.table_part(str(CORPUS / "chess"), 99)
    (tmp_path / "empty.pgn").write_text("")
    assert [p["games"] for p in kifu.dask.parts([tmp_path / "empty.pgn"], blocksize=1)] == [0]
    shutil.rmtree(tmp_path)
