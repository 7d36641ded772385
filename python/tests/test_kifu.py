"""Tests of the Python package (docs/python.md): run by .ci/run after
`pip install .`, as `python3 -m pytest python/tests`."""

import gzip
import json
import os
import pathlib
import threading

import pytest

import kifu

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"

PGN = """[Event "t"]
[White "A"]
[Black "B"]
[Result "1-0"]

{before} 1. e4 {good} e5 (1... c5 2. Nf3 {sicilian}) 2. Nf3 $1 Nc6 3. Bb5 1-0
"""


def one(text, **kw):
    games = list(kifu.read(text=text, **kw))
    assert len(games) == 1, games
    return games[0]


def test_formats_lists_the_registry():
    names = {f["name"]: f for f in kifu.formats()}
    assert {"pgn", "draughts-num", "draughts-diag", "json", "jsonl", "xml"} <= set(names)
    assert names["pgn"]["family"] == "chess"
    assert names["pgn"]["reads"] and names["pgn"]["writes"]
    assert names["json"]["family"] is None
    assert names["pgn"]["extensions"] == ["pgn"]


def test_a_game_has_tags_in_order_moves_result_variations_and_comments():
    g = one(PGN, format="pgn")
    assert isinstance(g, kifu.Game)
    assert list(g.tags.items()) == [
        ("Event", "t"),
        ("White", "A"),
        ("Black", "B"),
        ("Result", "1-0"),
    ]
    assert g.result == "1-0"
    assert g.family == "chess" and g.format == "pgn"
    assert g.index == 1 and g.line == 1
    assert [p["text"] for p in g.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    first = g.moves[0]
    assert first["number"] == 1 and first["side"] == "white"
    assert first["move"] == {"chess": {"move": {"role": "pawn", "from": "e2", "to": "e4"}}}
    assert first["after"] == ["good"]
    assert g.moves[2]["nags"] == [1]
    # The variation replaces the second ply; its plies are spelled too.
    [(at, line)] = g.variations
    assert at == 1
    assert [p["text"] for p in line] == ["c5", "Nf3"]
    assert line[1]["after"] == ["sicilian"]
    assert g.comments == [(0, "before"), (1, "good")]
    assert g.warnings == []
    assert "A - B" in repr(g)


def test_to_json_is_kifus_json_and_reads_back():
    g = one(PGN, format="pgn")
    data = json.loads(g.to_json())
    assert data["variant"] == {"family": "chess"}
    assert data["tags"][0] == {"name": "Event", "value": "t"}
    assert len(data["moves"]["plies"]) == 5
    back = one(g.to_json(), format="json")
    assert [p["text"] for p in back.moves] == [p["text"] for p in g.moves]
    assert back.to_json() == g.to_json()


def test_a_failed_game_is_an_item_and_the_rest_are_read():
    text = "1. e4 e5 *\n\n1. e4 e4 *\n\n1. d4 *\n"
    items = list(kifu.read(text=text, format="pgn"))
    assert [type(i) for i in items] == [kifu.Game, kifu.ReadError, kifu.Game]
    err = items[1]
    assert isinstance(err, Exception)
    assert "illegal move" in err.message
    assert (err.game, err.line) == (2, 3)
    assert err.file == "<text>"
    assert err.text.startswith("1. e4 e4 *")
    assert items[2].index == 3
    assert [type(i) for i in kifu.read(text=text, format="pgn", errors="skip")] == [kifu.Game] * 2
    reader = kifu.read(text=text, format="pgn", errors="raise")
    assert isinstance(next(reader), kifu.Game)
    with pytest.raises(kifu.ReadError) as raised:
        next(reader)
    assert raised.value.game == 2
    with pytest.raises(ValueError):
        kifu.read(text=text, format="pgn", errors="ignore")


def test_no_validate_reads_by_syntax():
    g = one("1. e4 e4 *", format="pgn", no_validate=True)
    assert len(g.moves) == 2


def test_warnings_are_python_objects():
    g = one(b'[Event "caf\xe9"]\n\n1. e4 *\n', format="pgn")
    assert g.tags["Event"] == "caf\u00e9"
    [w] = g.warnings
    assert isinstance(w, kifu.ReadWarning) and isinstance(w, UserWarning)
    assert w.kind == "latin-1" and "Latin-1" in w.message
    assert w.game == 1


def test_a_path_is_read_with_its_format_from_its_name(tmp_path):
    path = tmp_path / "games.pgn.gz"
    with gzip.open(path, "wt") as f:
        f.write(PGN + "\n" + PGN)
    games = list(kifu.read(path))
    assert len(games) == 2
    assert games[1].line == 8 and games[1].file == str(path)
    # A str is a path; a text is text=, and needs its format.
    assert len(list(kifu.read(str(path)))) == 2
    with pytest.raises(FileNotFoundError):
        kifu.read("1. e4 *", format="pgn")
    with pytest.raises(ValueError):
        kifu.read(text="1. e4 *")
    with pytest.raises(ValueError):
        kifu.read(text="1. e4 *", format="no-such-format")


def test_damage_is_a_last_read_error():
    g = one("1. e4 *", format="pgn")
    *games, cut = kifu.read(text="[" + g.to_json(), format="json")
    assert [type(x) for x in games] == [kifu.Game]
    assert isinstance(cut, kifu.ReadError) and cut.game == 0
    assert "cut short" in cut.message
    broken = gzip.compress(b"1. e4 *\n\n" * 1000)[:-30]
    *games, damaged = kifu.read(broken, format="pgn")
    assert games and all(isinstance(x, kifu.Game) for x in games)
    assert isinstance(damaged, kifu.ReadError)
    assert "damaged compressed data" in damaged.message


def test_draughts_with_format_options_and_write():
    games = list(kifu.read(CORPUS / "draughts" / "english.pdn"))
    assert games and all(isinstance(g, kifu.Game) for g in games)
    g = games[0]
    assert g.family == "draughts"
    assert [p["text"] for p in g.moves[:3]] == ["11-15", "23-19", "8-11"]
    diag = kifu.write(games, "draughts-diag")
    again = list(kifu.read(text=diag, format="draughts-diag"))
    assert [[p["move"] for p in x.moves] for x in again] == [
        [p["move"] for p in x.moves] for x in games
    ]
    # Each ply spelled in the notation read.
    assert again[0].moves[0]["text"] != "11-15"
    assert g.write("draughts-num").startswith('[Event "kifu: English checkers')
    with pytest.raises(kifu.WriteError):
        kifu.write(games, "pgn")
    # An option the format does not take is an unexpected keyword.
    with pytest.raises(TypeError, match="no_such_option"):
        kifu.write(games, "draughts-num", no_such_option="1")


def test_write_frames_the_games_as_one_file():
    games = list(kifu.read(text=PGN + "\n" + PGN, format="pgn"))
    out = json.loads(kifu.write(games, "json"))
    assert isinstance(out, list) and len(out) == 2
    lines = kifu.write(games, "jsonl").splitlines()
    assert len(lines) == 2
    assert kifu.write([], "pgn") == ""


def test_convert_is_the_command_line(tmp_path):
    src = tmp_path / "in.pgn"
    src.write_text(PGN + "\n1. e4 e4 *\n")
    dst = tmp_path / "out.jsonl"
    done = kifu.convert(src, dst)
    assert (done["converted"], done["failed"]) == (1, 1)
    assert "illegal move" in " ".join(done["diagnostics"])
    assert done["summary"].startswith("converted 1 game, 1 failed")
    assert len(dst.read_text().splitlines()) == 1
    out = tmp_path / "out"
    done = kifu.convert([src], out, to="json", out_dir=True)
    assert (out / "in.json").exists()
    with pytest.raises(OSError):
        kifu.convert(tmp_path / "missing.pgn", dst)
    with pytest.raises(ValueError):
        kifu.convert(src, dst, to="no-such-format")
    with pytest.raises(kifu.WriteError):
        kifu.convert(src, tmp_path / "strict.jsonl", strict=True)


def test_reading_streams_a_large_input(tmp_path):
    # 40,000 games (about 3 MB): the first comes before the rest are read,
    # and reading them all holds a bounded number of batches.
    path = tmp_path / "many.pgn"
    game = '[White "w"]\n[Black "b"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n'
    path.write_text(game * 40000)
    reader = kifu.read(path)
    assert isinstance(next(reader), kifu.Game)
    count = 1 + sum(1 for _ in reader)
    assert count == 40000


def test_the_gil_is_released_while_kifu_parses(tmp_path):
    path = tmp_path / "many.pgn"
    game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n"
    path.write_text(game * 20000)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        assert sum(1 for _ in kifu.read(path)) == 20000
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 1


def test_the_stubs_and_marker_are_installed():
    here = pathlib.Path(kifu.__file__).parent
    assert (here / "py.typed").exists()
    assert (here / "_kifu.pyi").exists()


def test_threads_share_one_reader(tmp_path):
    path = tmp_path / "many.pgn"
    path.write_text("1. e4 e5 2. Nf3 Nc6 *\n\n" * 20000)
    reader = kifu.read(path)
    counts = []

    def drain():
        counts.append(sum(1 for _ in reader))

    threads = [threading.Thread(target=drain) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 20000
