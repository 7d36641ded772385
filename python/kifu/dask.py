"""kifu's tables as Dask DataFrames: large archives read on a Dask cluster.

>>> import kifu.dask
>>> paths = ["a.pgn", "b.pgn.gz"]
>>> games, tags, moves = kifu.dask.tables(paths, blocksize="64MiB")  # doctest: +SKIP
>>> games.groupby("result").size().compute()  # doctest: +SKIP

The three tables are the ones ``kifu convert --to csv --out-dir DIR`` (or
``--to parquet``) writes over the same inputs, row for row: ``games``,
``tags`` and ``moves``, joined on ``game_id``, with the same columns and
types as the parquet tables. Each partition is one input (a file, a member
of a zip archive) or, with ``blocksize``, one byte range of a plain
(uncompressed) file, cut at a game boundary by the format's own record
scanner, so that every game is read by exactly one partition.

``tables`` first scans the inputs (one task per input, on the cluster when
a ``distributed.Client`` is active): the record boundaries and a hash of
each game record, no parsing. From that scan each partition knows how many
games of its input come before it (the ``game`` column, numbered as the
command line numbers them) and which records of the same bytes came before
(``game_id`` is the hash of the record, with ``-2``, ``-3`` for a repeated
record, as in one run of the command line). The DataFrames then read and
convert the games when they are computed.

Paths must name the same files on every worker (a shared file system); the
``source`` column names each game's input as given. Importing this module
needs Dask (``pip install "dask[dataframe]" distributed``); ``kifu`` alone
does not.
"""

from __future__ import annotations

import operator
import os
from collections import Counter
from typing import Any, Iterable, Optional, Union

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask import delayed

from . import _kifu

__all__ = ["tables", "parts", "counts", "meta"]

Path = Union[str, "os.PathLike[str]"]


def _dtype(kind: str, not_null: bool) -> Any:
    if kind == "integer":
        return "int64" if not_null else "Int64"
    if kind == "boolean":
        return "boolean"
    return pd.StringDtype("pyarrow")


def meta() -> dict[str, pd.DataFrame]:
    """The empty ``games``, ``tags`` and ``moves`` DataFrames: each table's
    columns in order, typed as the parquet tables type them (``int64``,
    nullable ``Int64`` and ``boolean``, strings; JSON columns as their
    text)."""
    out = {}
    for table, columns in _kifu.table_columns():
        out[table] = pd.DataFrame(
            {name: pd.array([], dtype=_dtype(kind, nn)) for name, kind, nn in columns}
        )
    return out


def _column(data: tuple, dtype: Any) -> Any:
    """One column of ``_kifu.table_part`` as a numpy or pandas array of
    ``dtype``, from its buffers (no Python object per value)."""
    if data[0] == "text":
        import pyarrow as pa

        _, rows, offsets, values, valid, nulls = data
        array = pa.Array.from_buffers(
            pa.large_string(),
            rows,
            [pa.py_buffer(valid) if nulls else None, pa.py_buffer(offsets), pa.py_buffer(values)],
            null_count=nulls,
        )
        return pd.arrays.ArrowStringArray(array)
    kind, values, mask = data
    values = np.frombuffer(values, dtype="<i8" if kind == "integer" else np.bool_).copy()
    if dtype == "int64":
        return values
    mask = np.frombuffer(mask, dtype=np.bool_).copy()
    if kind == "integer":
        return pd.arrays.IntegerArray(values, mask)
    return pd.arrays.BooleanArray(values, mask)


def _frames(columns: list[dict[str, tuple]]) -> tuple[pd.DataFrame, ...]:
    empty = meta()
    frames = []
    for (table, _), data in zip(_kifu.table_columns(), columns):
        m = empty[table]
        frames.append(
            pd.DataFrame({name: _column(data[name], m[name].dtype) for name in m.columns})
        )
    return tuple(frames)


def _read_part(path: str, part: dict[str, Any], prior: list, read: dict[str, Any]):
    games, tags, moves, counts = _kifu.table_part(
        path,
        part["job"],
        start=part["start"],
        end=part["end"],
        first=part["first"],
        games=part["games"],
        prior=prior,
        **read,
    )
    return _frames([games, tags, moves]) + (counts,)


def _size(blocksize: Union[int, str, None]) -> Optional[int]:
    """``blocksize`` in bytes: an int from 1, or a text Dask reads
    (``"64MiB"``); out of range a ``ValueError``, another type a
    ``TypeError``."""
    if blocksize is None:
        return None
    if isinstance(blocksize, str):
        size = dask.utils.parse_bytes(blocksize)
    elif isinstance(blocksize, bool) or not hasattr(type(blocksize), "__index__"):
        raise TypeError(
            "blocksize: a size in bytes (an int, or a text such as \"64MiB\"), "
            f"not {type(blocksize).__name__}"
        )
    else:
        size = operator.index(blocksize)
    if not 1 <= size < 2**64:
        raise ValueError(f"blocksize={blocksize!r}: out of range: a size is 1 to {2**64 - 1} bytes")
    return size


def parts(
    paths: Union[Path, Iterable[Path]],
    *,
    blocksize: Union[int, str, None] = None,
    format: Optional[str] = None,
    max_record_size: Union[int, str, None] = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """The partitions ``tables`` reads, in order: for each, the ``path`` as
    given, the ``job`` (the input of it: a file of a folder, a member of a
    zip archive), ``source`` (as the ``source`` column names it), the byte
    range ``start``..``end`` (``end`` ``None``: to the end), ``first`` (the
    games of its input before it), ``games`` (its game records) and
    ``prior`` (each game key of it met in the partitions before, with how
    many records of it came there). Scanned on the cluster when a client is
    active. ``options`` are the format options the partitions will be read
    with, checked here: one no format of an input takes is a
    ``TypeError``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    size = _size(blocksize)
    scans = dask.compute(
        *[
            delayed(_kifu.table_parts, pure=True)(
                p, blocksize=size, from_format=format, max_record_size=max_record_size, **options
            )
            for p in paths
        ]
    )
    out = []
    for path, scanned in zip(paths, scans):
        for part in scanned:
            part = dict(part, path=path)
            part["keys"] = np.frombuffer(part["keys"], dtype="<u8")
            out.append(part)
    # The keys met in more than one record: each partition's prior count of
    # them, as one run of the command line numbers repeats.
    every = np.concatenate([p["keys"] for p in out]) if out else np.array([], "<u8")
    unique, counts = np.unique(every, return_counts=True)
    repeated = unique[counts > 1]
    seen: Counter = Counter()
    for part in out:
        mine = part.pop("keys")
        mine = mine[np.isin(mine, repeated)].tolist()
        part["prior"] = sorted((k, seen[k]) for k in set(mine) if seen[k])
        seen.update(mine)
    return out


def tables(
    paths: Union[Path, Iterable[Path]],
    *,
    blocksize: Union[int, str, None] = None,
    format: Optional[str] = None,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    **options: Any,
) -> tuple[dd.DataFrame, dd.DataFrame, dd.DataFrame]:
    """The ``games``, ``tags`` and ``moves`` tables of the inputs (files,
    folders, zip archives, as ``kifu convert`` takes them) as Dask
    DataFrames: the rows ``kifu convert PATHS --to csv --out-dir DIR``
    writes, one partition per input, or per ``blocksize`` bytes (an int, or
    ``"64MiB"``) of a plain file, cut at game boundaries.

    ``format`` is ``--from``, ``no_validate`` and ``max_record_size`` as
    in ``kifu.read``, and the other keyword arguments are format options.
    The three share their partitions' tasks: compute them together
    (``dask.compute(g.to_parquet(..., compute=False), ...)``) to read
    each partition once. A game that fails has no rows, as on the command
    line; ``parts`` and ``counts`` say what each partition read."""
    read = dict(
        from_format=format,
        no_validate=no_validate,
        max_record_size=max_record_size,
        **options,
    )
    done = _tasks(paths, blocksize, read)
    m = meta()
    frames = []
    for i, table in enumerate(("games", "tags", "moves")):
        pieces = [d[i] for d in done]
        frames.append(dd.from_delayed(pieces, meta=m[table], verify_meta=False))
    return frames[0], frames[1], frames[2]


def _tasks(paths, blocksize, read) -> list:
    scan = {k: v for k, v in read.items() if k not in ("from_format", "no_validate")}
    return [
        delayed(_read_part, pure=True)(p["path"], p, p["prior"], read)
        for p in parts(paths, blocksize=blocksize, format=read.get("from_format"), **scan)
    ]


def counts(
    paths: Union[Path, Iterable[Path]],
    *,
    blocksize: Union[int, str, None] = None,
    format: Optional[str] = None,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    **options: Any,
) -> dict[str, Any]:
    """What reading the inputs as ``tables`` does gave, summed over the
    partitions: ``converted``, ``failed``, ``warnings``, ``damaged``, and
    the ``diagnostics`` (each partition's lines and game numbers counted
    from its start)."""
    read = dict(
        from_format=format,
        no_validate=no_validate,
        max_record_size=max_record_size,
        **options,
    )
    done = dask.compute(*[d[3] for d in _tasks(paths, blocksize, read)])
    total: dict[str, Any] = {
        "converted": 0,
        "failed": 0,
        "warnings": 0,
        "damaged": 0,
        "diagnostics": [],
    }
    for c in done:
        for k in ("converted", "failed", "warnings", "damaged"):
            total[k] += c[k]
        total["diagnostics"] += c["diagnostics"]
    return total
