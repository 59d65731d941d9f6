"""DataFrames out: results and releases as pandas, Polars or Arrow tables. pandas is the pivot (a
dependency of ldiv_db); Polars and pyarrow are optional (the ``dataframes`` extra) and imported when
asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from .lazy import library

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

# the libraries whose tables ldiv_db reads (DataFrames in: ldiv_db/commands/frames.py)
FRAME_TYPES = {
    ("pandas", "DataFrame"),
    ("polars", "DataFrame"),
    ("polars", "LazyFrame"),
    ("pyarrow", "Table"),
}


def is_frame(obj: Any) -> bool:
    """Whether ``obj`` is a pandas/Polars DataFrame, a Polars LazyFrame or an Arrow table (by its type's
    module, so that no optional library is imported to ask)."""
    cls = type(obj)
    return any((c.__module__.split(".")[0], c.__name__) in FRAME_TYPES for c in cls.__mro__)


def _missing(library: str) -> BadInput:
    return BadInput(
        f"{library} is not installed, and this result was asked for as a {library} table",
        f"pip install 'ldiv_db[dataframes]' (Polars and pyarrow), or pip install {library}",
    )


def to_library(frame: pd.DataFrame, library: str) -> Any:
    """``frame`` as a ``pandas``, ``polars`` or ``arrow`` table."""
    if library == "pandas":
        return frame
    if library == "arrow":
        try:
            import pyarrow as pa
        except ImportError:
            raise _missing("pyarrow") from None
        return pa.Table.from_pandas(frame, preserve_index=False)
    if library == "polars":
        try:
            import polars as pl
        except ImportError:
            raise _missing("polars") from None
        return pl.from_pandas(frame)
    raise BadInput(f"unknown frame library {library!r}", "use pandas, polars or arrow")


class FrameResult:
    """``to_pandas()``, ``to_polars()`` and ``to_arrow()`` of a result that defines ``to_pandas``."""

    def to_pandas(self) -> pd.DataFrame:
        raise NotImplementedError

    def to_polars(self) -> Any:
        return to_library(self.to_pandas(), "polars")

    def to_arrow(self) -> Any:
        return to_library(self.to_pandas(), "arrow")
