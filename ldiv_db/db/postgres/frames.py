"""Frames in PostgreSQL's binary ``COPY`` format, built by numpy in one pass (no Python object per
value). The PostgreSQL engine sends a frame of integers this way, cheaper than a Python tuple
per row through ``write_row``.

The format (PostgreSQL's ``COPY ... FORMAT binary``): a signature, two zero 32-bit words (flags, header
extension), then per row a 16-bit field count and per field a 32-bit length and the value in network
byte order, and a 16-bit -1 at the end. Only fixed-width, NULL-free columns are encoded here, so every
row has the same layout and the rows are one structured numpy array.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InternalError

SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00"
TRAILER = b"\xff\xff"

# PostgreSQL type oid -> the big-endian numpy type of its binary form
_WIDTHS = {20: ">i8", 23: ">i4", 21: ">i2", 16: "u1"}


def binary_candidate(frame: pd.DataFrame) -> bool:
    """Whether the frame could go binary at all: not empty, and every column integer or boolean (numpy
    dtypes, so without NULL); the target's types decide the rest (:func:`binary_rows`)."""
    dtypes = [frame[c].to_numpy().dtype for c in frame.columns]
    return bool(len(frame)) and all(np.issubdtype(d, np.integer) or d == np.bool_ for d in dtypes)


def binary_rows(frame: pd.DataFrame, type_oids: list[int]) -> bytes | None:
    """The frame as a binary ``COPY`` stream for columns of the given types (in the frame's column
    order); None for an empty frame, for a column that is not an integer or boolean column without NULL
    bound for BIGINT, INTEGER, SMALLINT or BOOLEAN, and for a value that does not fit its target's
    width (the caller then sends the frame the general way, where PostgreSQL names what does not fit)."""
    if not binary_candidate(frame) or len(type_oids) != len(frame.columns):
        return None
    values: list[np.ndarray] = []
    fields: list[tuple[str, str]] = [("count", ">i2")]
    for i, (col, oid) in enumerate(zip(frame.columns, type_oids, strict=True)):
        target = _WIDTHS.get(oid)
        arr = frame[col].to_numpy()
        if target is None or (oid == 16) != (arr.dtype == np.bool_):
            return None
        cast = arr.astype(target)
        if oid != 16 and not np.array_equal(cast.astype(np.int64), arr):
            return None  # out of the target's range
        values.append(cast)
        fields += [(f"len{i}", ">i4"), (f"v{i}", target)]
    rows = np.empty(len(frame), dtype=np.dtype(fields))
    rows["count"] = len(values)
    for i, cast in enumerate(values):
        rows[f"len{i}"] = cast.dtype.itemsize
        rows[f"v{i}"] = cast
    return SIGNATURE + rows.tobytes() + TRAILER


def frame_rows(frame: pd.DataFrame) -> Iterator[tuple[Any, ...]]:
    """The frame's rows as tuples for a text ``COPY``: NaN/None/NaT as NULL, integral floats (integers
    that a NaN made float) as int."""
    missing = frame.isna()
    columns = [
        [
            None if gone else int(v) if isinstance(v, float) and v.is_integer() else v
            for v, gone in zip(frame[col].astype(object), missing[col], strict=True)
        ]
        for col in frame.columns
    ]
    return zip(*columns, strict=True)


def csv_frame(buf: io.BytesIO, names: list[str]) -> pd.DataFrame:
    """A result that ``COPY ... TO STDOUT WITH (FORMAT csv)`` wrote into ``buf`` (its columns are
    integers: int64, or float64 with NaN where a column holds NULL, as the ordinary path builds them)."""
    if not buf.tell():
        return pd.DataFrame(columns=names)
    buf.seek(0)
    return pd.read_csv(
        buf,
        header=None,
        names=names,
        keep_default_na=False,
        na_values=[""],  # COPY's CSV writes NULL as an empty field
    )


def numeric_columns(frame: pd.DataFrame) -> dict[str, Any]:
    """A numeric result's columns as numpy arrays by name (``Database.arrays``); NULL is refused."""
    if frame.isna().to_numpy().any():
        raise InternalError("a numeric result holds NULL")
    return {str(c): frame[c].to_numpy() for c in frame.columns}
