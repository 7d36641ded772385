"""kifu: board-game records (chess, draughts, Coerceo, hnefatafl, tenjiku
shogi) read, written and converted between notations by the kifu library,
the one the ``kifu`` command line runs.

>>> import kifu
>>> game = next(kifu.read(text="1. e4 e5 2. Nf3 *", format="pgn"))
>>> [ply["text"] for ply in game.moves]
['e4', 'e5', 'Nf3']
"""

from __future__ import annotations

import os
from typing import IO, Any, Iterable, Iterator, Optional, TypedDict, Union


class Ply(TypedDict):
    """One ply of ``Game.moves``: its move number and side, its ``text`` as
    the source notation spells it (the family's first notation for an
    interchange format; ``None`` where the moves cannot be replayed, read
    with ``no_validate``), the ``move`` as data (kifu's JSON of the move),
    its glyph and NAGs, the comments ``before`` and ``after`` it, and its
    ``variations`` (each a list of plies, the first replacing this one)."""

    number: int
    side: str
    text: Optional[str]
    move: dict[str, Any]
    glyph: Optional[str]
    nags: list[int]
    before: list[str]
    after: list[str]
    variations: list[list["Ply"]]


class FormatInfo(TypedDict):
    """One format of ``formats()``."""

    name: str
    extensions: list[str]
    family: Optional[str]
    description: str
    reads: bool
    writes: bool


from ._kifu import Game, ReadError, Reader, ReadWarning, WriteError  # noqa: E402
from ._kifu import convert as _convert  # noqa: E402
from ._kifu import formats as _formats  # noqa: E402
from ._kifu import write as _write  # noqa: E402

__all__ = [
    "FormatInfo",
    "Game",
    "Ply",
    "ReadError",
    "ReadWarning",
    "WriteError",
    "read",
    "write",
    "convert",
    "formats",
]


def read(
    source: Union[str, bytes, "os.PathLike[str]", IO[Any], None] = None,
    format: str | None = None,
    *,
    text: Union[str, bytes, None] = None,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    errors: str = "yield",
    **options: Any,
) -> Iterator[Union[Game, ReadError]]:
    """The games of a file or a text, one at a time, in order.

    ``source`` is a path (a ``str`` or ``os.PathLike``: a file that is not
    there raises ``FileNotFoundError``; compressed files are read as they
    are: gzip, zstd, bzip2, xz), the data (``bytes``), or a file object
    (``io.StringIO``, ``open(...)``: what its ``read()`` gives). A text is
    given as ``text=`` (``str`` or ``bytes``). ``format`` is a name of
    ``formats()``; for a path it defaults to the one its name says.

    The input is read and parsed in batches on kifu's worker threads with
    the GIL released, and a bounded number of batches is held at once, so a
    large archive is read in flat memory.

    A game that fails is, with ``errors="yield"`` (the default), an item of
    the iteration: a ``ReadError`` (not raised), after which the next games
    come; ``errors="skip"`` leaves them out and ``errors="raise"`` raises
    the first one (which ends the iteration). ``no_validate`` reads by
    syntax alone, ``max_record_size`` is ``--max-record-size`` (bytes, or
    a text such as ``"64M"``; out of range: ``ValueError``), and the other
    keyword arguments are the format's own options (``--from-opt
    NAME=VALUE``, ``_`` for ``-``; one the format does not take:
    ``TypeError``). Ctrl-C stops the iteration (``KeyboardInterrupt``).
    """
    return Reader(
        source,
        format,
        text=text,
        no_validate=no_validate,
        max_record_size=max_record_size,
        errors=errors,
        options=options,
    )


def write(games: Iterable[Game], format: str, **options: Any) -> str:
    """The games, written in ``format`` as one file of it (its own options as
    keyword arguments, ``--to-opt NAME=VALUE``; one it does not take:
    ``TypeError``). A game the format cannot hold raises ``WriteError``;
    Ctrl-C stops it between two games."""
    return _write(games, format, **options)


def convert(
    src: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]],
    dst: Union[str, "os.PathLike[str]", None] = None,
    *,
    to: str | None = None,
    from_format: str | None = None,
    out_dir: bool = False,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    strict: bool = False,
    rejects: Union[str, "os.PathLike[str]", None] = None,
    **options: Any,
) -> dict[str, Any]:
    """``kifu convert SRC... -o DST --to TO`` (``--out-dir DST`` with
    ``out_dir=True``; standard output without ``dst``): files, folders and
    zip archives, as the command line converts them. The other keyword
    arguments are format options (for both sides, as ``--from-opt`` and
    ``--to-opt``). Gives the counts (``converted``, ``failed``,
    ``warnings``, ``damaged``, ``skipped``), the closing ``summary`` line
    and the ``diagnostics`` as the command line prints them. A usage error
    raises ``ValueError``, a keyword no format of the run takes
    ``TypeError``, an input that is not there ``FileNotFoundError``;
    ``strict`` stops at the first failed game with ``WriteError``. Ctrl-C
    stops it after the batch it is converting (``KeyboardInterrupt``),
    its outputs not written: each file is put in place only when
    complete."""
    return _convert(
        src,
        dst,
        to=to,
        from_format=from_format,
        out_dir=out_dir,
        no_validate=no_validate,
        max_record_size=max_record_size,
        strict=strict,
        rejects=rejects,
        **options,
    )


def formats() -> list[FormatInfo]:
    """Every format (``kifu formats``): name, extensions, family,
    description, and whether kifu reads and writes it."""
    return _formats()
