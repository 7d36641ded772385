"""kifu against python-chess on the shared chess corpus (docs/python.md):
the same games, with the same main lines (each ply's SAN as python-chess
writes it, `board.san`) and the same tags. Skips without the shared folder
(../shared beside the checkout, or KIFU_SHARED) or without python-chess."""

import os
import pathlib

import pytest

import kifu

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("KIFU_SHARED", ROOT.parent / "shared"))
CHESS = SHARED / "corpus" / "chess"

# Variants kifu does not play: python-chess reads these games, kifu says
# why not (a ReadError naming the variant).
NOT_PLAYED = {"antichess", "crazyhouse"}


def files():
    if not CHESS.is_dir():
        return []
    return sorted(CHESS.joinpath("twic").glob("*.pgn")) + sorted(
        CHESS.joinpath("python-chess").glob("*.pgn")
    )


def python_chess_games(path):
    with open(path, encoding="utf-8-sig") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            yield game


def main_line(game):
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


@pytest.mark.skipif(not CHESS.is_dir(), reason=f"the shared corpus {CHESS} is absent")
@pytest.mark.parametrize("path", files(), ids=lambda p: p.name)
def test_the_same_games_and_main_lines_as_python_chess(path):
    ours = list(kifu.read(path))
    theirs = list(python_chess_games(path))
    assert len(ours) == len(theirs)
    compared = 0
    for i, (a, b) in enumerate(zip(ours, theirs), 1):
        assert not b.errors, (i, b.errors)
        if isinstance(a, kifu.ReadError):
            variant = b.headers.get("Variant", "").lower()
            assert variant in NOT_PLAYED, (i, a.message)
            continue
        assert [p["text"] for p in a.moves] == main_line(b), i
        for tag in ("Event", "White", "Black", "Result"):
            assert a.tags.get(tag, "?") == b.headers.get(tag, "?"), (i, tag)
        compared += 1
    if path.parent.name == "twic":
        assert compared == len(theirs) > 1000
