"""What Python says when it is called wrong (docs/python.md, "Mistakes"):
every function of the package against every kind of bad argument, each
raised as Python raises it (TypeError for an unexpected keyword or type,
ValueError for a size out of range, FileNotFoundError for a path that is
not there), and Ctrl-C stopping each long call within a second, its
outputs not left behind."""

import io
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import kifu

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
PGN = CORPUS / "chess" / "petrosjan-sllavcco.pgn"
PDN = CORPUS / "draughts" / "english.pdn"

try:
    import dask.dataframe  # noqa: F401

    import kifu.dask

    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False


def game():
    [g] = kifu.read(PGN)
    return g


# Every function of the package, called with a good call's arguments and
# the bad ones of a case: `path` (an input path), `kw` (keyword arguments).
def call_read(path=PGN, **kw):
    return list(kifu.read(path, **kw))


def call_read_text(path=None, **kw):
    if path is not None:
        return list(kifu.read(path, **kw))
    return list(kifu.read(text=PGN.read_text(), format="pgn", **kw))


def call_write(path=None, **kw):
    return kifu.write([game()], "pgn", **kw)


def call_game_write(path=None, **kw):
    return game().write("pgn", **kw)


def call_convert(path=PGN, tmp=None, **kw):
    return kifu.convert(path, tmp / "out.jsonl", **kw)


def call_dask_tables(path=PGN, **kw):
    games, tags, moves = kifu.dask.tables([path], **kw)
    return len(games.compute())


def call_dask_counts(path=PGN, **kw):
    return kifu.dask.counts([path], **kw)


FUNCTIONS = {
    "read": call_read,
    "read-text": call_read_text,
    "write": call_write,
    "Game.write": call_game_write,
    "convert": call_convert,
    "dask.tables": call_dask_tables,
    "dask.counts": call_dask_counts,
}
# Which take a path, and a record size.
TAKE_PATH = {"read", "convert", "dask.tables", "dask.counts"}
TAKE_SIZE = {"read", "read-text", "convert", "dask.tables", "dask.counts"}

TOO_BIG = 2**80
# Each kind of bad argument: the call's arguments, what is raised and words
# of its message.
CASES = {
    "unknown keyword": (dict(kw=dict(colour="white")), TypeError, "'colour'"),
    "misspelt keyword": (dict(kw=dict(no_validat=True)), TypeError, "'no_validat'"),
    "size 2**80": (dict(kw=dict(max_record_size=TOO_BIG)), ValueError, str(TOO_BIG)),
    "size -1": (dict(kw=dict(max_record_size=-1)), ValueError, "max_record_size=-1"),
    "size 0": (dict(kw=dict(max_record_size=0)), ValueError, "max_record_size=0"),
    "size text": (dict(kw=dict(max_record_size="lots")), ValueError, "no size"),
    "size bool": (dict(kw=dict(max_record_size=True)), TypeError, "bool"),
    "size float": (dict(kw=dict(max_record_size=1.5)), TypeError, "float"),
    "mistyped path": (dict(path=CORPUS / "chess" / "no-such.pgn"), FileNotFoundError, "no-such.pgn"),
    "mistyped str path": (
        dict(path=str(CORPUS / "chess" / "no-such.pgn")),
        FileNotFoundError,
        "no-such.pgn",
    ),
    "a folder for a file": (dict(path=CORPUS / "chess"), IsADirectoryError, "chess"),
    "an int for a path": (dict(path=42), TypeError, "int"),
}
# A folder is an input of convert and of kifu.dask, as on the command line.
NOT_FOR = {"a folder for a file": {"convert", "dask.tables", "dask.counts"}}
# Words the message of a refused keyword has: its name and the ones there are.
KNOWN = {
    "read": "no_validate",
    "read-text": "no_validate",
    "write": "games, format",
    "Game.write": "format",
    "convert": "from_format",
    "dask.tables": "blocksize",
    "dask.counts": "blocksize",
}


def applies(function, case):
    args, _, _ = CASES[case]
    if "path" in args and function not in TAKE_PATH:
        return False
    if "max_record_size" in args.get("kw", {}) and function not in TAKE_SIZE:
        return False
    if function in NOT_FOR.get(case, set()):
        return False
    return True


PAIRS = [
    pytest.param(f, c, marks=[pytest.mark.skipif(f.startswith("dask") and not HAVE_DASK, reason="no dask")])
    for f in FUNCTIONS
    for c in CASES
    if applies(f, c)
]


@pytest.mark.parametrize("function,case", PAIRS)
def test_every_function_says_what_is_wrong_with_each_bad_argument(function, case, tmp_path):
    args, raised, words = CASES[case]
    call = FUNCTIONS[function]
    extra = {"tmp": tmp_path} if function == "convert" else {}
    kw = dict(args.get("kw", {}))
    path = args.get("path")
    with pytest.raises(raised) as info:
        if path is None:
            call(**extra, **kw)
        else:
            call(path, **extra, **kw)
    # Exactly that exception, never an OverflowError or a generic OSError.
    assert type(info.value) is raised, info.value
    message = str(info.value)
    assert words in message, message
    if raised is TypeError and "keyword" in case:
        assert KNOWN[function] in message, message
    if raised is FileNotFoundError:
        assert info.value.errno == 2 and "no-such.pgn" in info.value.filename
    # Nothing written by a call that failed.
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("function", [f for f in FUNCTIONS if not f.startswith("dask")])
def test_a_good_call_of_each_function_runs(function, tmp_path):
    """The calls the cases above spoil, unspoiled (a size as the command
    line writes one)."""
    extra = {"tmp": tmp_path} if function == "convert" else {}
    kw = {"max_record_size": "16M"} if function in TAKE_SIZE else {}
    assert FUNCTIONS[function](**extra, **kw)


def test_a_str_is_a_path_and_text_has_its_own_ways():
    text = PGN.read_text()
    # A text given where a path goes says where text goes.
    with pytest.raises(FileNotFoundError) as info:
        kifu.read("1. e4 e5 *", format="pgn")
    assert "text=" in str(info.value)
    for source in (dict(text=text), dict(text=text.encode())):
        [g] = kifu.read(format="pgn", **source)
        assert g.tags["White"] == "Petrosjan" and g.file == "<text>"
    for source in (io.StringIO(text), io.BytesIO(text.encode()), text.encode()):
        [g] = kifu.read(source, format="pgn")
        assert g.tags["White"] == "Petrosjan"
    # A file object names the file it reads.
    with open(PGN, "rb") as f:
        [g] = kifu.read(f, format="pgn")
    assert g.file == str(PGN)
    with pytest.raises(TypeError, match="not both"):
        kifu.read(PGN, text=text)
    with pytest.raises(TypeError, match="text="):
        kifu.read()
    with pytest.raises(TypeError, match="text= is a str or bytes"):
        kifu.read(text=42, format="pgn")
    with pytest.raises(ValueError, match="embedded null byte"):
        kifu.read("a\0b.pgn")
    # A keyword no format has is said before the format a text lacks.
    with pytest.raises(TypeError, match="'fromat'"):
        kifu.read(text=text, fromat="pgn")
    with pytest.raises(ValueError, match="needs its format"):
        kifu.read(text=text)
    # So for a file whose name says no format.
    with pytest.raises(TypeError, match="'fromat'"):
        kifu.read(CORPUS / "chess" / "petrosjan-sllavcco.md", fromat="pgn")
    with pytest.raises(ValueError, match="cannot tell the format"):
        kifu.read(CORPUS / "chess" / "petrosjan-sllavcco.md")


def test_write_takes_games_and_says_what_else_it_was_given():
    g = game()
    [failed] = kifu.read(text="1. e4 e4 *", format="pgn")
    for items, words in [
        ([g, "1. e4 *"], "item 1 is a str"),
        ([failed], "errors=\"skip\""),
        ([g, None], "item 1 is a NoneType"),
    ]:
        with pytest.raises(TypeError) as info:
            kifu.write(items, "pgn")
        assert words in str(info.value)
    with pytest.raises(TypeError, match="not iterable"):
        kifu.write(42, "pgn")


def test_a_keyword_is_refused_on_the_side_it_does_not_act():
    # board is draughts-num's option for reading it, not for writing.
    [g, *_] = kifu.read(PDN, board="english")
    with pytest.raises(TypeError) as info:
        g.write("draughts-num", board="english")
    assert "'board'" in str(info.value) and "draughts-num" in str(info.value)
    # A value the option refuses is a ValueError, as on the command line.
    with pytest.raises(ValueError, match="board"):
        kifu.read(PDN, board="no-such-board")


# The formats' numeric options: svg's ply (writing), tafl's board (reading).
NUMERIC = {
    "svg ply": lambda tmp, v: kifu.convert(PGN, tmp / "out.svg", ply=v),
    "tafl board": lambda tmp, v: list(kifu.read(CORPUS / "tafl" / "seed.tafl", board=v)),
    "tafl board, convert": lambda tmp, v: kifu.convert(
        CORPUS / "tafl" / "seed.tafl", tmp / "out.tafl", board=v
    ),
}


@pytest.mark.parametrize("option", NUMERIC)
@pytest.mark.parametrize("value", [TOO_BIG, -1, 2**64, "x"])
def test_a_numeric_format_option_out_of_range_is_a_value_error(option, value, tmp_path):
    with pytest.raises(ValueError) as info:
        NUMERIC[option](tmp_path, value)
    assert type(info.value) is ValueError
    assert str(value) in str(info.value)
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not HAVE_DASK, reason="no dask")
@pytest.mark.parametrize("blocksize,raised", [(-1, ValueError), (0, ValueError), (TOO_BIG, ValueError), (True, TypeError), (1.5, TypeError)])
def test_dask_blocksize_out_of_range(blocksize, raised):
    with pytest.raises(raised) as info:
        kifu.dask.tables([PGN], blocksize=blocksize)
    assert type(info.value) is raised and "blocksize" in str(info.value)


# Ctrl-C: a child process makes a big input (a corpus game repeated), says
# `ready` just before the long call, and is sent SIGINT 0.3 s later.
BIG_GAMES = 100_000

CHILD = """
import os, pathlib, sys
import kifu
tmp = pathlib.Path(sys.argv[1])
game = pathlib.Path(sys.argv[2]).read_text().strip() + "\\n\\n"
big = tmp / "big.pgn"
big.write_text(game * {games})
out = tmp / "out"
out.mkdir()
{setup}
print("ready", flush=True)
{call}
print("done", flush=True)
"""

CALLS = {
    "list(kifu.read(big))": ("", "list(kifu.read(big))"),
    "kifu.read, every game failing (errors='skip')": (
        "big.write_text('1. e4 e4 *\\n\\n' * 10 * {games})",
        "list(kifu.read(big, errors='skip'))",
    ),
    # One game's object written many times: no memory for the games.
    "kifu.write": (
        "games = list(kifu.read(sys.argv[2])) * 5 * {games}",
        "kifu.write(games, 'pgn')",
    ),
    "kifu.convert -o": ("", "kifu.convert(big, out / 'big.jsonl')"),
    "kifu.convert --out-dir, csv tables": ("", "kifu.convert(big, out, to='csv', out_dir=True)"),
    "kifu.convert with rejects": (
        "",
        "kifu.convert(big, out / 'big.sllavcco', rejects=out / 'rejects.pgn')",
    ),
}


def interrupted(call, tmp_path, setup, run):
    """How long the child took to stop after SIGINT, having raised
    KeyboardInterrupt before its call ended."""
    script = CHILD.format(
        games=BIG_GAMES,
        setup=setup.format(games=BIG_GAMES),
        call=run.format(games=BIG_GAMES),
    )
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), str(tmp_path), str(PGN)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "ready\n", child.stderr.read()
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = child.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert "KeyboardInterrupt" in err, err
    assert "done" not in out
    assert child.returncode != 0
    # No output left as if complete, and no temporary file.
    assert sorted(os.listdir(tmp_path / "out")) == []
    return took


@pytest.mark.parametrize("call", CALLS)
def test_ctrl_c_stops_a_long_call_within_a_second(call, tmp_path):
    took = interrupted(call, tmp_path, *CALLS[call])
    assert took < 2, f"{call} took {took:.2f} s to stop"


@pytest.mark.skipif(not HAVE_DASK, reason="no dask")
def test_ctrl_c_stops_kifu_dask_on_the_main_thread(tmp_path):
    # A partition converted on the main thread (Dask's sync scheduler):
    # about 1.5 s with Dask's teardown, where it ran its 27 s to the end.
    took = interrupted(
        "kifu.dask",
        tmp_path,
        "import dask, kifu.dask\ndask.config.set(scheduler='sync')\ntables = kifu.dask.tables([big])",
        "dask.compute(*tables)",
    )
    assert took < 5, f"kifu.dask took {took:.2f} s to stop"
