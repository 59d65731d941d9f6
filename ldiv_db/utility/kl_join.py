"""The containment join of KL-divergence (:mod:`.kl`): F*(x), the mass of the patterns covering each point.

A *dimension* is a QI or an SA: every pattern carries a label code on it, every point a value code, and
the dimension's :class:`Cover` says which values each label stands for, as sorted (label, value) pairs; a
label × value matrix is kept beside them only where it is small, as its size is quadratic where an
attribute has about a value per row.

While points × patterns is large, :func:`split` cuts the problem on the dimension that cuts that work the
most: the points holding value v meet only the patterns whose label covers v, found through the cover's
value → labels index and the patterns grouped by label (so a split costs the pairs it produces, not values
× patterns). What is left are leaves with disjoint points. A large leaf ANDs bitsets over its patterns,
one per value its points hold (:class:`Leaf`); leaves of a few pairs are solved together, pair by pair
(:class:`Pairs`), so a release with a leaf per point (an SA with a value per row) pays no set-up per leaf.

Both solve a point's F* as the same float sum: the masses of its covering patterns in the leaf's
pattern order, summed eight patterns (one bitset byte) at a time and the bytes' sums in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..util.arrays import concat_ranges
from ..util.lazy import library

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = library("numpy")

_BLOCK_WORDS = 1 << 19  # words of one block of point bitsets: 4 MiB (its byte lookups: 16 + 32 MiB)
_DENSE_CELLS = 1 << 26  # cells of one dense (value × pattern) cover slice
# points × patterns above which a split on a dimension is considered: a leaf costs a fixed ~0.3 ms of
# array set-up per dimension, so splitting below ~16M pairs (0.25M bitset words) costs more than it saves
SPLIT_WORK = 1 << 24
TINY_WORK = 1 << 12  # points × patterns of a leaf solved pair by pair with the other small ones
_PAIRS_BATCH = 1 << 20  # (point, pattern) pairs tested at once
_SPLIT_CHUNK = 1 << 22  # (value, pattern) pairs of a split built at once
# label × value cells up to which a cover is also kept as a matrix: a leaf then takes its bitsets' rows
# for every value by slicing it, cheaper than the sparse build where domains are small
DENSE_COVER = 1 << 20


@dataclass(frozen=True)
class Cover:
    """Which values each label stands for, as (label, value) pairs sorted by label then value, with the
    index of each label's pairs and of each value's labels."""

    n_labels: int
    n_values: int
    label: npt.NDArray[np.int64]
    value: npt.NDArray[np.int64]
    label_ptr: npt.NDArray[np.int64]  # label l's pairs: [label_ptr[l], label_ptr[l + 1])
    by_value: npt.NDArray[np.int64]  # the pairs' positions ordered by (value, label)
    value_ptr: npt.NDArray[np.int64]  # value v's labels: label[by_value[value_ptr[v]:value_ptr[v + 1]]]
    keys: npt.NDArray[np.int64]  # label · n_values + value, ascending
    dense: npt.NDArray[np.bool_] | None  # label × value, where it has at most DENSE_COVER cells

    @classmethod
    def of_pairs(
        cls, label: npt.NDArray[np.int64], value: npt.NDArray[np.int64], n_labels: int, n_values: int
    ) -> Cover:
        keys = np.unique(label * n_values + value) if n_values else np.zeros(0, dtype=np.int64)
        lab, val = (keys // n_values, keys % n_values) if n_values else (keys, keys)
        by_value = np.lexsort((lab, val))
        dense = None
        if n_labels * n_values <= DENSE_COVER:
            dense = np.zeros((n_labels, n_values), dtype=bool)
            dense[lab, val] = True
        return cls(
            n_labels,
            n_values,
            lab,
            val,
            np.searchsorted(lab, np.arange(n_labels + 1)),
            by_value,
            np.searchsorted(val[by_value], np.arange(n_values + 1)),
            keys,
            dense,
        )

    @classmethod
    def of_sa(cls, n_values: int) -> Cover:
        """An SA's cover, its labels the SA codes + 2: label 0 (a value the source lacks) covers none,
        label 1 (the unknown SA) every value, label v + 2 the value v."""
        every = np.arange(n_values, dtype=np.int64)
        return cls.of_pairs(
            np.r_[np.ones(n_values, dtype=np.int64), every + 2], np.r_[every, every], n_values + 2, n_values
        )

    def sizes(self) -> npt.NDArray[np.int64]:
        """Per label, how many values it covers."""
        return np.diff(self.label_ptr)

    def per_value(self, label_counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Per value, how many of the counted labels cover it (exact integers, as floats)."""
        if self.dense is not None:
            return np.asarray(label_counts[: self.n_labels] @ self.dense, dtype=np.float64)
        counts = np.bincount(self.value, weights=label_counts[self.label], minlength=self.n_values)
        return np.asarray(counts, dtype=np.float64)

    def contains(self, labels: npt.NDArray[np.int64], values: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Whether each label covers the value beside it (a value < 0, outside the domain: never)."""
        if len(self.keys) == 0:
            return np.zeros(len(labels), dtype=bool)
        q = labels * self.n_values + values
        at = np.minimum(np.searchsorted(self.keys, q), len(self.keys) - 1)
        found: npt.NDArray[np.bool_] = (self.keys[at] == q) & (values >= 0)
        return found


@dataclass(frozen=True)
class Dim:
    """One dimension of the containment test: its cover, every pattern's label code and every point's
    value code (-1: outside the domain, covered by nothing)."""

    cover: Cover
    labels: npt.NDArray[np.int64]
    values: npt.NDArray[np.int64]


@dataclass(frozen=True)
class Leaf:
    """Points ``pts`` against the patterns ``pats`` on the dimensions left after the splits."""

    dims: Sequence[Dim]
    pts: npt.NDArray[np.int64]
    pats: npt.NDArray[np.int64]

    @property
    def work(self) -> int:
        return len(self.pts) * len(self.pats)

    def solve(self, mass: npt.NDArray[np.float64], fstar: npt.NDArray[np.float64]) -> None:
        """AND the bitsets of the values the leaf's points hold: F* of its points."""
        tables = [_value_bitsets(dim, self.pts, self.pats) for dim in self.dims]
        fstar[self.pts] = _masses(tables, mass[self.pats])


@dataclass(frozen=True)
class Pairs:
    """Small leaves solved together: every (point, pattern) pair of each tested on every dimension (a
    dimension split on holds for all of a leaf's pairs)."""

    dims: Sequence[Dim]
    leaves: Sequence[Leaf]

    @property
    def work(self) -> int:
        return sum(leaf.work for leaf in self.leaves)

    def solve(self, mass: npt.NDArray[np.float64], fstar: npt.NDArray[np.float64]) -> None:
        p = np.array([len(leaf.pts) for leaf in self.leaves], dtype=np.int64)
        q = np.array([len(leaf.pats) for leaf in self.leaves], dtype=np.int64)
        pts = np.concatenate([leaf.pts for leaf in self.leaves])
        pats = np.concatenate([leaf.pats for leaf in self.leaves])
        # pair k of leaf i: point k // q[i], pattern k % q[i], leaf by leaf (so point by point, and each
        # point's patterns in the leaf's order)
        n_pairs = p * q
        per_pair_q = np.repeat(q, n_pairs)
        local = np.arange(int(n_pairs.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(n_pairs) - n_pairs, n_pairs
        )
        point = pts[np.repeat(np.cumsum(p) - p, n_pairs) + local // per_pair_q]
        slot = local % per_pair_q
        pattern = pats[np.repeat(np.cumsum(q) - q, n_pairs) + slot]
        ok = np.ones(len(point), dtype=bool)
        for dim in self.dims:
            ok &= dim.cover.contains(dim.labels[pattern], dim.values[point])
        point, slot, pattern = point[ok], slot[ok], pattern[ok]
        fstar[pts] = 0.0
        if len(point) == 0:
            return
        # the same sums as the bitsets': per point and byte (8 slots) in slot order, then the bytes in order
        byte = slot // 8
        starts = np.r_[True, (point[1:] != point[:-1]) | (byte[1:] != byte[:-1])]
        group = np.cumsum(starts) - 1
        byte_sums = np.bincount(group, weights=mass[pattern])
        owner = point[starts]
        first = np.r_[True, owner[1:] != owner[:-1]]
        fstar[owner[first]] = np.bincount(np.cumsum(first) - 1, weights=byte_sums)


def split(dims: Sequence[Dim], pts: npt.NDArray[np.int64], pats: npt.NDArray[np.int64]) -> list[Leaf | Pairs]:
    """The leaves of the problem (points ``pts`` against patterns ``pats``), the small ones in batches."""
    leaves: list[Leaf] = []
    _split(dims, pts, pats, leaves)
    out: list[Leaf | Pairs] = [leaf for leaf in leaves if leaf.work > TINY_WORK]
    batch: list[Leaf] = []
    size = 0
    for leaf in leaves:
        if leaf.work <= TINY_WORK:
            batch.append(leaf)
            size += leaf.work
            if size >= _PAIRS_BATCH:
                out.append(Pairs(dims, batch))
                batch, size = [], 0
    if batch:
        out.append(Pairs(dims, batch))
    return out


def _split(
    dims: Sequence[Dim], pts: npt.NDArray[np.int64], pats: npt.NDArray[np.int64], leaves: list[Leaf]
) -> None:
    """While the bitset work (points × patterns) is large, split on the dimension whose value-by-value
    split leaves the least of it (the first SA is the usual choice; its splits are the SA values)."""
    work = len(pts) * len(pats)
    if work > SPLIT_WORK and len(dims) > 1:
        best, best_cost, best_covering = -1, 0.5 * work, None
        for i, dim in enumerate(dims):
            covering = dim.cover.per_value(np.bincount(dim.labels[pats], minlength=dim.cover.n_labels))
            vals = dim.values[pts]
            cost = float(covering[vals[vals >= 0]].sum())
            if cost < best_cost:
                best, best_cost, best_covering = i, cost, covering
        if best >= 0:
            assert best_covering is not None
            _split_on(dims, best, best_covering, pts, pats, leaves)
            return
    leaves.append(Leaf(dims, pts, pats))


def _split_on(
    dims: Sequence[Dim],
    best: int,
    covering: npt.NDArray[np.float64],
    pts: npt.NDArray[np.int64],
    pats: npt.NDArray[np.int64],
    leaves: list[Leaf],
) -> None:
    """Split on ``dims[best]``: the points holding each value v against the patterns covering v (in
    ``pats`` order), recursed value by value in ascending order."""
    dim, rest = dims[best], [dm for j, dm in enumerate(dims) if j != best]
    vals = dim.values[pts]
    order = np.argsort(vals, kind="stable")
    sorted_vals = vals[order]
    starts = np.flatnonzero(np.r_[True, sorted_vals[1:] != sorted_vals[:-1]])
    ends = np.r_[starts[1:], len(order)]
    keep = sorted_vals[starts] >= 0  # outside the domain: covered by nothing
    starts, ends = starts[keep], ends[keep]
    values = sorted_vals[starts]
    sizes = covering[values].astype(np.int64)
    by_label = _ByLabel(dim.labels[pats], dim.cover.n_labels)
    ends_at = np.cumsum(sizes)  # the (value, pattern) pairs up to each value
    lo = 0
    while lo < len(values):
        below = int(ends_at[lo] - sizes[lo])
        hi = max(lo + 1, int(np.searchsorted(ends_at, below + _SPLIT_CHUNK, side="right")))
        bounds, positions = by_label.covering(dim.cover, values[lo:hi])
        for g in range(hi - lo):
            a, b = int(bounds[g]), int(bounds[g + 1])
            if b > a:
                _split(rest, pts[order[starts[lo + g] : ends[lo + g]]], pats[positions[a:b]], leaves)
        lo = hi


class _ByLabel:
    """The positions of a list of patterns grouped by their label on one dimension."""

    def __init__(self, labels: npt.NDArray[np.int64], n_labels: int) -> None:
        self.n = len(labels)
        self.order = np.argsort(labels, kind="stable")
        self.count = np.bincount(labels, minlength=n_labels)
        self.start = np.cumsum(self.count) - self.count

    def covering(
        self, cover: Cover, values: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """For each of ``values``, the positions of the patterns whose label covers it, ascending:
        ``positions[bounds[g]:bounds[g + 1]]`` for ``values[g]``."""
        n_labels = cover.value_ptr[values + 1] - cover.value_ptr[values]
        labels = cover.label[cover.by_value[concat_ranges(cover.value_ptr[values], n_labels)]]
        group = np.repeat(np.arange(len(values), dtype=np.int64), n_labels)
        n_pats = self.count[labels]
        pos = self.order[concat_ranges(self.start[labels], n_pats)]
        key = np.sort(np.repeat(group, n_pats) * max(self.n, 1) + pos)
        return np.searchsorted(key, np.arange(len(values) + 1) * max(self.n, 1)), key % max(self.n, 1)


def _value_bitsets(
    dim: Dim, pts: npt.NDArray[np.int64], pats: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """For every value the points hold (plus a last all-zero row for 'outside the domain'), the bitset of
    the patterns whose label covers it; and every point's row."""
    cover, vals = dim.cover, dim.values[pts]
    if cover.dense is not None:  # every value's row, sliced from the matrix
        return _packed(cover.dense, dim.labels[pats]), np.where(vals >= 0, vals, cover.n_values)
    present = np.unique(vals[vals >= 0])
    rows = np.where(vals >= 0, np.searchsorted(present, vals), len(present))
    uniq, inverse = np.unique(dim.labels[pats], return_inverse=True)
    sizes = cover.sizes()[uniq]
    by_value = cover.value_ptr[present + 1] - cover.value_ptr[present]
    if int(sizes.sum()) <= int(by_value.sum()):  # expand the labels' values, keep those present
        at = concat_ranges(cover.label_ptr[uniq], sizes)
        u = np.repeat(np.arange(len(uniq), dtype=np.int64), sizes)
        r = np.minimum(np.searchsorted(present, cover.value[at]), max(len(present) - 1, 0))
        keep = present[r] == cover.value[at] if len(present) else np.zeros(len(at), dtype=bool)
    else:  # expand the values' labels, keep the leaf's
        labels = cover.label[cover.by_value[concat_ranges(cover.value_ptr[present], by_value)]]
        r = np.repeat(np.arange(len(present), dtype=np.int64), by_value)
        u = np.minimum(np.searchsorted(uniq, labels), len(uniq) - 1)
        keep = uniq[u] == labels
    member = np.zeros((len(uniq), len(present)), dtype=bool)
    member[u[keep], r[keep]] = True
    return _packed(member, inverse), rows


def _packed(member: npt.NDArray[np.bool_], labels: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """Per column of ``member`` (label × value), the bitset of the patterns whose label (a row of
    ``member``) has it; plus a last all-zero row. Built a slice of patterns at a time."""
    n_rows, n_patterns = member.shape[1], len(labels)
    out = np.zeros((n_rows + 1, -(-n_patterns // 64) * 8), dtype=np.uint8)
    step = max(64, (_DENSE_CELLS // max(n_rows, 1)) // 64 * 64)
    for lo in range(0, n_patterns, step):
        hi = min(n_patterns, lo + step)
        packed = np.packbits(member[labels[lo:hi]].T, axis=1, bitorder="little")  # values × patterns
        out[:n_rows, lo // 8 : lo // 8 + packed.shape[1]] = packed
    return out.view(np.uint64)


def _masses(
    tables: Sequence[tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]], mass: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Σ of the masses of the patterns covering each point: AND of the points' value bitsets, block by
    block, then the masses of the set bits, a byte at a time through a table of the 256 subset sums of
    every 8 consecutive patterns."""
    n_points = len(tables[0][1])
    words = tables[0][0].shape[1]
    padded = np.zeros(words * 64, dtype=np.float64)
    padded[: len(mass)] = mass
    byte_sums = _subset_sums(padded.reshape(-1, 8)).ravel()  # (words·8) × 256: mass of each byte value
    out = np.zeros(n_points, dtype=np.float64)
    block = max(1, _BLOCK_WORDS // max(words, 1))
    for lo in range(0, n_points, block):
        hi = min(n_points, lo + block)
        acc: npt.NDArray[np.uint64] | None = None
        for bits, rows in tables:
            acc = bits[rows[lo:hi]] if acc is None else np.bitwise_and(acc, bits[rows[lo:hi]], out=acc)
        assert acc is not None
        if hi - lo > 1 and 2 * np.count_nonzero(acc) > acc.size:
            # mostly set words: look up every byte, byte position by byte position (row-major over the
            # table, so each position's 256 sums stay in cache); little-endian: byte b holds patterns 8b..
            # Summed over axis 0, numpy adds the positions in order; a single point's column would be
            # summed pairwise, hence the other branch for it
            slots = acc.view(np.uint8).T + (np.arange(words * 8, dtype=np.int32) * 256)[:, None]
            out[lo:hi] = np.take(byte_sums, slots).sum(axis=0)
            continue
        # mostly empty: look up only the set bytes (little-endian: byte j of a row holds patterns 8j..8j+7)
        as_bytes = acc.view(np.uint8)
        r, j = np.nonzero(as_bytes)
        if len(r) == 0:
            continue
        contrib = np.take(byte_sums, j * 256 + as_bytes[r, j])
        out[lo:hi] = np.bincount(r, weights=contrib, minlength=hi - lo)
    return out


def _subset_sums(mass: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For every row of 8 masses, the sums of its 256 subsets (column v: the masses of v's set bits), built
    by doubling: the subsets holding bit b are those without it plus mass b. Plain additions: a small
    matrix product would go to the BLAS, whose threads cost more than the product on a busy machine."""
    out = np.zeros((mass.shape[0], 256), dtype=np.float64)
    for b in range(8):
        half = 1 << b
        np.add(out[:, :half], mass[:, b : b + 1], out=out[:, half : 2 * half])
    return out
