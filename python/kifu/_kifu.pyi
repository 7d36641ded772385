# Type stubs of the native module (src/python.rs).
import os
from typing import IO, Any, Iterable, Iterator, Optional, Union

from . import FormatInfo, Ply

class ReadError(Exception):
    """A game kifu could not read: an item of `kifu.read`'s iteration."""

    message: str
    kind: str
    file: str
    line: int
    col: int
    game: int
    text: Optional[str]

class ReadWarning(UserWarning):
    """What kifu noticed while reading a game it still read."""

    message: str
    kind: str
    file: str
    line: int
    col: int
    game: int
    text: None

class WriteError(Exception):
    """A game a format cannot write, or a conversion that could not run."""

class Game:
    """One game read by `kifu.read`."""

    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def moves(self) -> list[Ply]: ...
    @property
    def variations(self) -> list[tuple[int, list[Ply]]]: ...
    @property
    def comments(self) -> list[tuple[int, str]]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def family(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def file(self) -> str: ...
    @property
    def warnings(self) -> list[ReadWarning]: ...
    def to_json(self) -> str: ...
    def write(self, format: str, **options: Any) -> str: ...

class Reader(Iterator[Union[Game, ReadError]]):
    def __init__(
        self,
        source: Union[str, bytes, os.PathLike[str], IO[Any], None] = None,
        format: Optional[str] = None,
        *,
        text: Union[str, bytes, None] = None,
        no_validate: bool = False,
        max_record_size: Union[int, str, None] = None,
        errors: str = "yield",
        options: Optional[dict[str, Any]] = None,
    ) -> None: ...
    def __iter__(self) -> Reader: ...
    def __next__(self) -> Union[Game, ReadError]: ...

def write(games: Iterable[Game], format: str, **options: Any) -> str: ...
def formats() -> list[FormatInfo]: ...
def convert(
    src: Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]]],
    dst: Union[str, os.PathLike[str], None] = None,
    *,
    to: Optional[str] = None,
    from_format: Optional[str] = None,
    out_dir: bool = False,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    strict: bool = False,
    rejects: Union[str, os.PathLike[str], None] = None,
    **options: Any,
) -> dict[str, Any]: ...
def table_parts(
    path: Union[str, os.PathLike[str]],
    *,
    blocksize: Optional[int] = None,
    from_format: Optional[str] = None,
    max_record_size: Union[int, str, None] = None,
    **options: Any,
) -> list[dict[str, Any]]: ...
def table_part(
    path: Union[str, os.PathLike[str]],
    job: int = 0,
    *,
    start: int = 0,
    end: Optional[int] = None,
    first: int = 0,
    games: Optional[int] = None,
    prior: Optional[list[tuple[int, int]]] = None,
    from_format: Optional[str] = None,
    no_validate: bool = False,
    max_record_size: Union[int, str, None] = None,
    **options: Any,
) -> tuple[
    dict[str, tuple[Any, ...]],
    dict[str, tuple[Any, ...]],
    dict[str, tuple[Any, ...]],
    dict[str, Any],
]: ...
def table_columns() -> list[tuple[str, list[tuple[str, str, bool]]]]: ...
