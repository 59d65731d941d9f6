"""Index arithmetic on numpy arrays shared by the algorithms and the metrics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import library

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = library("numpy")


def concat_ranges(starts: npt.ArrayLike, lengths: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The index ranges ``[starts[i], starts[i] + lengths[i])`` one after another, in one array."""
    lo = np.asarray(starts, dtype=np.int64)
    n = np.asarray(lengths, dtype=np.int64)
    total = int(n.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(lo - (np.cumsum(n) - n), n) + np.arange(total, dtype=np.int64)
