"""The exchange search's gathers and short reductions (:mod:`.swaps`, :mod:`.exchange`): rows and cells
gathered with ``np.take`` / ``np.compress`` (:func:`take_rows`, :func:`take_cells`) and a class's least or
greatest member entry taken column by column (:func:`lowest`, :func:`highest`, :func:`columns`): numpy's
fancy indexing of a 2-D array's rows and its reductions over a short last axis cost 3–10× as much, for
the same values (tests/unit/test_bsgi_gathers.py). Also a partition's classes as the search holds them
(:class:`Members`, from :func:`member_matrix`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...shared.lca import stable_order
from ...shared.trees import IntArray
from ..greedy.cost import CostArray

SHORT = 8  # a last axis at most this long is reduced column by column (:func:`lowest`, :func:`highest`)


def take_rows(x: np.ndarray[Any, Any], at: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``x[at]`` along the first axis (``at`` indices or a mask), by ``np.take`` / ``np.compress``: numpy's
    fancy indexing of the rows of a 2-D or 3-D array costs 3-10× as much (the same values)."""
    return np.compress(at, x, axis=0) if at.dtype == bool else np.take(x, at, axis=0)


def take_cells(
    x: np.ndarray[Any, Any], r: np.ndarray[Any, Any], c: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """``x[r, c]`` of a 2-D array, as one ``np.take`` of flat positions (3× faster; the same values)."""
    out: np.ndarray[Any, Any] = np.take(x.reshape(-1), r * x.shape[1] + c)
    return out


def lowest(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The minimum along the last axis. Where that axis is short (a class's members) as the elementwise
    minimum of its columns: numpy's reduction over a short inner axis costs ~10× as much (the same
    numbers: a minimum does not depend on the order it is taken in)."""
    return columns(np.minimum, x) if 0 < x.shape[-1] <= SHORT else x.min(axis=-1)


def highest(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The maximum along the last axis (as :func:`lowest`)."""
    return columns(np.maximum, x) if 0 < x.shape[-1] <= SHORT else x.max(axis=-1)


def columns(op: np.ufunc, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``op`` folded over the columns of the last axis (a width of one: a copy, never a view)."""
    if x.shape[-1] == 1:
        return x[..., 0].copy()
    return functools.reduce(op, (x[..., i] for i in range(2, x.shape[-1])), op(x[..., 0], x[..., 1]))


@dataclass(frozen=True)
class Members:
    """A partition as the exchange search holds it (:meth:`.exchange.Refiner.members`): per class its row
    positions (``mem``, :func:`member_matrix`), sizes and scaled costs, for the partition ``gid``.
    :meth:`.exchange.Refiner.run` of that same array takes them over instead of computing them again (and
    changes ``mem`` and ``cost`` in place)."""

    gid: IntArray
    mem: IntArray
    sizes: IntArray
    cost: CostArray

    @property
    def il(self) -> int | float:
        """Σ_G |G|·cost(G), in the cost model's scaled units."""
        total: int | float = (self.sizes * self.cost).sum().item()
        return total


def member_matrix(gid: IntArray) -> tuple[IntArray, IntArray]:
    """The partition ``gid`` (row position → class id 0..k−1) as per class its row positions (classes ×
    largest size, −1 pads, each class's rows ascending) and its size."""
    k = int(gid.max()) + 1 if len(gid) else 0
    sizes = np.bincount(gid, minlength=k).astype(np.int64)
    rows = stable_order(gid)  # by class, each class's rows ascending
    width = int(sizes.max()) if k else 0
    cls = np.take(gid, rows)
    # each row's place in the flat (classes × width) matrix: its class's first slot plus its rank in it
    at = cls * width + np.arange(len(rows)) - np.take(np.cumsum(sizes) - sizes, cls)
    mem = np.full((k, width), -1, dtype=np.int64)
    np.put(mem, at, rows)
    return mem, sizes
