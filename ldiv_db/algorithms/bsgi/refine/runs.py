"""Per-row steps of the feasible split's levels (:mod:`.split`) over rows grouped into contiguous nodes
(segments): the sort of an attempt, the values' occurrence counts, running maxima within segments and
the extremes of blocks of rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...shared.lca import stable_order
from ...shared.trees import IntArray


def index_type(n: int) -> type[np.signedinteger[Any]]:
    """The integer type of per-row positions, segment numbers and counts among n rows: 32-bit while they
    fit (half the memory of the level's per-row arrays; products of them are taken in 64 bits)."""
    return np.int32 if n < 2**31 else np.int64


def sort_rows(seg: IntArray, code: IntArray, key: IntArray, n: int) -> IntArray:
    """The order of rows by (seg, code, key), ``key`` unique and < n: one int64 sort when they fit. The
    keys are unique, so every sort gives this order; numpy's stable one (a merge of runs) is the faster
    here, where a node's rows often come in runs already sorted along its parent's QI."""
    if not len(seg):
        return seg
    radix = (int(code.max()) + 1) * n
    if radix * (int(seg.max()) + 1) < 2**62:
        return np.argsort(seg.astype(np.int64) * radix + code * n + key, kind="stable")
    return np.lexsort((key, code, seg))


def occurrences(value: IntArray, seg: IntArray) -> tuple[IntArray, IntArray]:
    """Per position: the occurrence number (1-based) of its value within its segment so far, and the
    number of occurrences from it to the segment's end."""
    n = len(value)
    top = int(value.max()) + 1 if n else 1
    group = seg.astype(np.int64) * top + value
    # rows in order of (value, position) hold each (segment, value)'s rows together, in their order, as
    # (segment, value, position) does: one radix pass over the values instead of two or three over groups
    order = (
        np.argsort(value.astype(np.uint8 if top <= 2**8 else np.uint16), kind="stable")
        if top <= 2**16
        else stable_order(group)
    )
    g = group[order]
    del group
    first = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    del g
    small = index_type(n)
    sizes = np.diff(np.append(first, n)).astype(small)
    run = np.arange(n, dtype=small) - np.repeat(first.astype(small), sizes)
    occ = np.empty(n, dtype=small)
    occ[order] = run + 1
    del run
    total = np.empty(n, dtype=small)
    total[order] = np.repeat(sizes, sizes)
    total -= occ - 1
    return occ, total


def segmented_max(x: IntArray, seg: IntArray, reverse: bool) -> IntArray:
    """Running maximum of x (≥ 0) within each segment, from its start (or from its end)."""
    big = int(x.max()) + 1 if len(x) else 1
    if not reverse:
        off = seg.astype(np.int64) * big
        return (np.maximum.accumulate(x + off) - off).astype(x.dtype, copy=False)
    off = (int(seg.max()) - seg.astype(np.int64)) * big if len(seg) else seg.astype(np.int64)
    return (np.maximum.accumulate((x + off)[::-1]) - off[::-1])[::-1].astype(x.dtype, copy=False)


def block_extremes(c: IntArray, bounds: IntArray, width: int) -> tuple[IntArray, IntArray]:
    """The minimum and maximum of ``c`` over each block: from each of ``bounds`` to the next or the end,
    or (``width`` ≥ 1) every ``width`` entries, reduced column by column of a strided view — reduceat
    pays per block, about ten times as much for blocks of a few entries."""
    if width < 1:
        return np.minimum.reduceat(c, bounds), np.maximum.reduceat(c, bounds)
    return strided(np.minimum, c, width), strided(np.maximum, c, width)


def strided(op: np.ufunc, c: IntArray, width: int) -> IntArray:
    """``op`` over every ``width`` consecutive entries of ``c`` (its length a multiple of ``width``)."""
    cols = c.reshape(-1, width)
    out = cols[:, 0].copy()
    for t in range(1, width):
        op(out, cols[:, t], out=out)
    return out
