"""KL-divergence of a release (SPEC §0.7, after TP §6.2 and (l,α) §3.1).

Every source row is a point of ``A_1 × … × A_d × S_1 × …``; ``F(x)`` = the fraction of source rows equal
to x. Every published row t* spreads mass ``1/|T*|`` uniformly over its region
``Π_i cover(t*[A_i]) × {t*[S]}``, so ``F*(x) = Σ_{t*: x ∈ region(t*)} 1 / (|T*|·|region(t*)|)`` and
``KL = Σ_{x: F(x) > 0} F(x)·ln(F(x)/F*(x))``. Covers come from :mod:`.covers` (hierarchy leaves under a
node, the whole domain — the hierarchy's leaf count — for ``*``, the domain values inside an interval).
An SA suppressed to "unknown" (NULL) is taken to cover every SA value that occurs in the source [D].

How it is computed. Two queries (``sql/metrics/kl_inputs.sql``, ``kl_cover.sql``) reduce the source to
its distinct points and the release to its distinct patterns (label vector, SA, count), both as integer
codes sharing the SA coding, plus the label → domain-value cover relation. The containment join of
points and patterns is then done with bitsets: for every dimension (QI or SA) and domain value, a bitset
over the patterns marks those whose label covers the value; a point's covering patterns are the AND of
its values' bitsets, and F* is the mass of the set bits (looked up a set byte at a time). While points ×
patterns is large, the problem is first split on the dimension that cuts that work the most — the points
holding value v meet only the patterns covering v; the first SA is the usual first split (a point lies
only in patterns of its own SA value or of an unknown SA). The leaves of the split have disjoint points;
the thread that solves them shares them with the caller once the caller only waits (:meth:`KlInputs.help`),
so the end of the solve runs on two cores. Memory is bounded by processing points in blocks. (A
set-based SQL join of points and patterns explodes on local-recoding releases, whose overlapping ranges
make every point compatible with many pattern prefixes.)

When some source point lies in no published region — typically because its rows were deleted and no
other published row generalizes over it — F*(x) = 0 and KL is infinite: reported as ``None`` with a note.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..db import Database
from ..sqlgen.render import Ident, TableRef, render
from ..util.lazy import library

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = library("numpy")

_BLOCK_WORDS = 1 << 19  # words of one block of point bitsets: 4 MiB (its byte lookups: 16 + 32 MiB)
_DENSE_CELLS = 1 << 26  # cells of one dense (domain value × pattern) cover slice
# points × patterns above which a split on a dimension is considered: a leaf costs a fixed ~0.3 ms of
# array set-up per dimension, so splitting below ~16M pairs (0.25M bitset words) costs more than it saves
_SPLIT_WORK = 1 << 24


@dataclass(frozen=True)
class KlResult:
    kl: float | None
    note: str | None


@dataclass(frozen=True)
class KlQuery:
    """What KL reads: the source and release tables, the covers' tables (:mod:`.covers`: the domain, the
    labels and the label -> value cover), the QI and SA columns in each, and the release's row count;
    ``counted``: ``release`` is a release aggregate whose rows stand for ``n`` rows each."""

    source: TableRef
    release: TableRef
    domain: TableRef
    labels: TableRef
    cover: TableRef
    qi: Sequence[Ident]
    sa: Sequence[Ident]
    release_qi: Sequence[Ident]
    release_sa: Sequence[Ident]
    published_rows: int
    counted: bool = False


def kl_divergence(db: Database, query: KlQuery) -> KlResult:
    """KL of ``query.release`` against ``query.source`` (see the module docstring)."""
    fetched = kl_fetch(db, query)
    return fetched if isinstance(fetched, KlResult) else fetched.solve()


@dataclass(frozen=True)
class KlInputs:
    """What the two KL queries return, as arrays: the source points (``x`` QI value codes, ``s`` SA
    codes, ``n`` rows), the release patterns (``lab`` label codes, ``t`` SA codes, ``c`` rows) and the
    label → value cover pairs. :meth:`solve` reads nothing from the database, so it can run while the
    connection does other work."""

    x: npt.NDArray[np.int64]
    s: npt.NDArray[np.int64]
    n: npt.NDArray[np.float64]
    lab: npt.NDArray[np.int64]
    t: npt.NDArray[np.int64]
    c: npt.NDArray[np.float64]
    pairs: Mapping[str, npt.NDArray[np.int64]]  # attr, label, value
    published_rows: int
    shared: list[_Leaves] = field(default_factory=list, compare=False, repr=False)
    stopped: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)

    def solve(self) -> KlResult:
        """KL from the fetched arrays (the containment join of points and patterns, see the module
        docstring)."""
        return _solve_kl(self)

    def help(self) -> None:
        """Take a share of a running :meth:`solve` in the calling thread (the caller has nothing else to
        do but wait for it): the leaves not yet started. Nothing if the solve has not split yet."""
        if self.shared:
            self.shared[0].work()

    def stop(self) -> None:
        """Make a running :meth:`solve` end after the leaves it is on, with :class:`KlStopped`: a run
        that stops (an error, Ctrl-C) must not leave a thread in numpy while the interpreter exits."""
        self.stopped.set()


class KlStopped(Exception):
    """:meth:`KlInputs.stop` ended the solve before its result."""


def kl_fetch(
    db: Database, query: KlQuery, points: Mapping[str, npt.NDArray[Any]] | None = None
) -> KlInputs | KlResult:
    """The database part of :func:`kl_divergence`: its two queries, as :class:`KlInputs` (or the result
    itself for an empty release). ``points``: the source points a second reader fetched, coded by the
    domain this connection adopted from it (:mod:`.source_side`); then only the release's patterns are
    read here."""
    q = query
    if q.published_rows == 0:
        return KlResult(None, "the release is empty, so F* is 0 everywhere and KL is infinite")
    d, k = len(q.qi), len(q.sa)
    parts = "both" if points is None else "patterns"
    both = db.arrays(
        render(
            "metrics/kl_inputs.sql",
            source=q.source,
            release=q.release,
            domain=q.domain,
            labels=q.labels,
            qi=list(q.qi),
            sa=list(q.sa),
            rqi=list(q.release_qi),
            rsa=list(q.release_sa),
            counted=q.counted,
            parts=parts,
        ),
        bulk=True,
    )
    names = ["part", *(f"c{i}" for i in range(1, d + k + 1)), "n"]
    if points is not None:
        both = {c: np.concatenate([points[c], both[c]]) for c in names}
    part = np.asarray(both["part"], dtype=np.int64)
    codes = np.stack([np.asarray(both[c], dtype=np.int64) for c in names[1:-1]], axis=1).reshape(
        len(part), d + k
    )
    weights = np.asarray(both["n"], dtype=np.float64)
    is_point = part == 1
    pairs = db.arrays(
        render("metrics/kl_cover.sql", cover=q.cover, labels=q.labels, domain=q.domain), bulk=True
    )
    return KlInputs(
        x=codes[is_point, :d],
        s=codes[is_point, d:],
        n=weights[is_point],
        lab=codes[~is_point, :d],
        t=codes[~is_point, d:],
        c=weights[~is_point],
        pairs=pairs,
        published_rows=q.published_rows,
    )


DELETED_CAUSE = "usually their rows were deleted by suppression"
# where no row was deleted, the labels do not cover the source values as they were read
UNREAD_CAUSE = (
    "no row was deleted, so some published labels do not stand for the values they replaced as read "
    "here: numeric 'lo-hi' labels count as intervals only where they are read so (--interval-labels)"
)


def _solve_kl(inp: KlInputs) -> KlResult:
    x, s, n, lab, t, c = inp.x, inp.s, inp.n, inp.lab, inp.t, inp.c
    d, k = x.shape[1], s.shape[1]
    covers = _cover_matrices(inp.pairs, x, lab)
    # SA domains: every SA value of the source (an unknown SA covers them all)
    sa_sizes = [int(s[:, j].max()) + 1 if len(s) else 0 for j in range(k)]

    region = np.ones(len(lab), dtype=np.float64)
    for i in range(d):
        region *= covers[i].sum(axis=1)[lab[:, i]]
    for j in range(k):
        region *= np.where(t[:, j] == -1, sa_sizes[j], 1)
    mass = np.divide(c / float(inp.published_rows), region, out=np.zeros_like(region), where=region > 0)

    # one list of dimensions: the QIs, then the SAs (an SA value covers itself; the unknown SA, code -1,
    # covers every value; a value the source lacks, code -2, covers none)
    dims = [_Dim(covers[i], lab[:, i], x[:, i]) for i in range(d)]
    for j in range(k):
        sa_cover = np.zeros((sa_sizes[j] + 2, sa_sizes[j]), dtype=bool)
        sa_cover[1, :] = True
        sa_cover[np.arange(sa_sizes[j]) + 2, np.arange(sa_sizes[j])] = True
        dims.append(_Dim(sa_cover, t[:, j] + 2, s[:, j]))
    fstar = np.zeros(len(x), dtype=np.float64)
    if len(x) and len(lab):
        leaves: list[_Leaf] = []
        _split(dims, np.arange(len(x)), np.arange(len(lab)), leaves)
        shared = _Leaves(leaves, mass, fstar, inp.stopped)
        inp.shared.append(shared)  # a helper may take leaves from here on
        shared.work()
        shared.finish()
    if inp.stopped.is_set():
        raise KlStopped("KL was stopped")
    covered = fstar > 0
    uncovered = int((~covered).sum())
    if uncovered:
        return KlResult(
            None,
            f"{uncovered} of {len(x)} distinct source points (QI values and SA) lie in no published "
            f"row's region, so F*(x) = 0 there and KL is infinite; {DELETED_CAUSE}",
        )
    f = n / n.sum()
    return KlResult(math.fsum((f * np.log(f / fstar)).tolist()), None)


def _cover_matrices(
    pairs: Mapping[str, npt.NDArray[np.int64]], x: npt.NDArray[np.int64], lab: npt.NDArray[np.int64]
) -> list[npt.NDArray[np.bool_]]:
    """Per QI attribute, the boolean cover matrix label code × value code (labels and domains are small)."""
    attr = np.asarray(pairs["attr"], dtype=np.int64)
    pl = np.asarray(pairs["label"], dtype=np.int64)
    pv = np.asarray(pairs["value"], dtype=np.int64)
    covers: list[npt.NDArray[np.bool_]] = []
    for i in range(x.shape[1]):
        sel = attr == i + 1
        n_labels = int(lab[:, i].max()) + 1 if len(lab) else 0
        n_values = max(int(x[:, i].max()) + 1 if len(x) else 0, int(pv[sel].max()) + 1 if sel.any() else 0)
        m = np.zeros((max(n_labels, int(pl[sel].max()) + 1 if sel.any() else 0), n_values), dtype=bool)
        m[pl[sel], pv[sel]] = True
        covers.append(m)
    return covers


@dataclass(frozen=True)
class _Dim:
    """One dimension of the containment test: the cover matrix (label code × value code), every
    pattern's label code and every point's value code (-1: outside the domain, covered by nothing)."""

    cover: npt.NDArray[np.bool_]
    labels: npt.NDArray[np.int64]
    values: npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Leaf:
    """Points ``pts`` against the patterns ``pats`` on the dimensions left after the splits."""

    dims: Sequence[_Dim]
    pts: npt.NDArray[np.int64]
    pats: npt.NDArray[np.int64]


def _split(
    dims: Sequence[_Dim], pts: npt.NDArray[np.int64], pats: npt.NDArray[np.int64], leaves: list[_Leaf]
) -> None:
    """Split the points ``pts`` against the patterns ``pats`` into leaves. While the bitset work (points ×
    patterns) is large, split on the dimension whose value-by-value split leaves the least of it: the
    points holding value v meet only the patterns whose label covers v (the first SA is the usual choice;
    its splits are the SA values). The leaves' point sets are disjoint."""
    work = len(pts) * len(pats)
    if work > _SPLIT_WORK and len(dims) > 1:
        best, best_cost = -1, 0.5 * work
        for i, dim in enumerate(dims):
            covering = np.bincount(dim.labels[pats], minlength=dim.cover.shape[0]) @ dim.cover  # per value
            vals = dim.values[pts]
            cost = float(covering[vals[vals >= 0]].sum())
            if cost < best_cost:
                best, best_cost = i, cost
        if best >= 0:
            dim, rest = dims[best], [dm for j, dm in enumerate(dims) if j != best]
            vals = dim.values[pts]
            order = np.argsort(vals, kind="stable")
            sorted_vals = vals[order]
            starts = np.flatnonzero(np.r_[True, sorted_vals[1:] != sorted_vals[:-1]])
            ends = np.r_[starts[1:], len(order)]
            pat_labels = dim.labels[pats]
            for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
                v = int(sorted_vals[a])
                if v < 0:
                    continue  # outside the domain: covered by nothing
                sub = pats[dim.cover[pat_labels, v]]
                if len(sub):
                    _split(rest, pts[order[a:b]], sub, leaves)
            return
    leaves.append(_Leaf(dims, pts, pats))


def _solve_leaf(leaf: _Leaf, mass: npt.NDArray[np.float64], fstar: npt.NDArray[np.float64]) -> None:
    """AND the value bitsets of the leaf's dimensions: F* of its points."""
    tables = [(_value_bitsets(dim.cover, dim.labels[leaf.pats]), dim.values[leaf.pts]) for dim in leaf.dims]
    fstar[leaf.pts] = _masses(tables, mass[leaf.pats])


class _Leaves:
    """The leaves of one solve, taken one at a time (largest first) by the solving thread and by a helper:
    the caller, once it has nothing else to do but wait for the result (:meth:`KlInputs.help`). Numpy
    releases the interpreter lock in the array operations that make up a leaf, and the leaves write
    disjoint points of ``fstar``, so the two share the work on two cores."""

    def __init__(
        self,
        leaves: Sequence[_Leaf],
        mass: npt.NDArray[np.float64],
        fstar: npt.NDArray[np.float64],
        stopped: threading.Event | None = None,
    ) -> None:
        self._todo = sorted(leaves, key=lambda leaf: len(leaf.pts) * len(leaf.pats))  # popped from the end
        self._mass, self._fstar = mass, fstar
        self._stopped = stopped or threading.Event()
        self._busy = 0
        self._error: BaseException | None = None
        self._cond = threading.Condition()

    def work(self) -> None:
        """Solve leaves until none is left."""
        while True:
            with self._cond:
                if not self._todo or self._error is not None or self._stopped.is_set():
                    return
                leaf = self._todo.pop()
                self._busy += 1
            try:
                _solve_leaf(leaf, self._mass, self._fstar)
            except BaseException as exc:  # the solving thread raises it
                with self._cond:
                    self._error = exc
            finally:
                with self._cond:
                    self._busy -= 1
                    self._cond.notify_all()

    def finish(self) -> None:
        """Wait for a helper's last leaf; re-raise an error of any leaf."""
        with self._cond:
            self._cond.wait_for(lambda: self._busy == 0)
        if self._error is not None:
            raise self._error


def _value_bitsets(cover: npt.NDArray[np.bool_], labels: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """For every domain value (plus a last all-zero row for 'outside the domain'), the bitset of the
    patterns (given by their label codes) whose label covers it."""
    n_values = cover.shape[1]
    n_patterns = len(labels)
    n_bytes = -(-n_patterns // 64) * 8
    out = np.zeros((n_values + 1, n_bytes), dtype=np.uint8)
    step = max(64, (_DENSE_CELLS // max(n_values, 1)) // 64 * 64)
    for lo in range(0, n_patterns, step):
        hi = min(n_patterns, lo + step)
        dense = cover[labels[lo:hi]].T  # values × patterns[lo:hi]
        packed = np.packbits(dense, axis=1, bitorder="little")
        out[:n_values, lo // 8 : lo // 8 + packed.shape[1]] = packed
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
        for bits, values in tables:
            rows = np.where(values[lo:hi] < 0, bits.shape[0] - 1, values[lo:hi])
            acc = bits[rows] if acc is None else np.bitwise_and(acc, bits[rows], out=acc)
        assert acc is not None
        if 2 * np.count_nonzero(acc) > acc.size:
            # mostly set words: look up every byte, byte position by byte position (row-major over the
            # table, so each position's 256 sums stay in cache); little-endian: byte b holds patterns 8b..
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
