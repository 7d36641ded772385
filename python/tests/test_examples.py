"""The README's example "Results by opening, in pandas and DuckDB"
(python/examples/openings.py) runs, and
counts the same results by opening in pandas and in DuckDB (it asserts
so): on the repository's corpus, and on the shared chess archive when it
is there."""

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "python" / "examples" / "openings.py"
SHARED = pathlib.Path(os.environ.get("KIFU_SHARED", ROOT.parent / "shared"))


def run(*archive):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *map(str, archive)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_example_counts_results_by_opening_in_pandas_and_duckdb():
    out = run()  # corpus/chess/openings.pgn: 36 games of 22 openings
    assert "converted 36 games, 0 failed" in out
    assert "Sicilian Defense" in out and "Queen's Gambit Declined" in out


def test_the_example_on_the_shared_chess_archive():
    twic = SHARED / "corpus" / "chess" / "twic"
    if not twic.is_dir():
        pytest.skip("the shared corpus is absent")
    out = run(twic)
    assert "A00" in out


def test_the_session_of_docs_python_md_runs_on_a_fresh_clone(tmp_path):
    """docs/python.md's session, a doctest, in a folder that holds the
    repository's corpus and nothing else (it writes english.jsonl there)."""
    (tmp_path / "corpus").symlink_to(ROOT / "corpus")
    done = subprocess.run(
        [sys.executable, "-m", "doctest", str(ROOT / "docs" / "python.md")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "english.jsonl").is_file()
