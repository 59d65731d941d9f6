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
points and patterns (:mod:`.kl_join`) splits the problem on the most selective dimension while it is
large and ANDs per-value bitsets over the patterns in each leaf; its covers are sparse, so an SA or a QI
with about a value per row no longer costs time or memory quadratic in the rows. The leaves have disjoint points; the thread
that solves them shares them with the caller once the caller only waits (:meth:`KlInputs.help`), so the
end of the solve runs on two cores. (A set-based SQL join of points and patterns explodes on
local-recoding releases, whose overlapping ranges make every point compatible with many pattern
prefixes.)

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
from .kl_join import Cover, Dim, Leaf, Pairs, split

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = library("numpy")


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
    covers = _covers(inp.pairs, x, lab)
    # SA domains: every SA value of the source (an unknown SA covers them all)
    sa_sizes = [int(s[:, j].max()) + 1 if len(s) else 0 for j in range(k)]

    region = np.ones(len(lab), dtype=np.float64)
    for i in range(d):
        region *= covers[i].sizes()[lab[:, i]]
    for j in range(k):
        region *= np.where(t[:, j] == -1, sa_sizes[j], 1)
    mass = np.divide(c / float(inp.published_rows), region, out=np.zeros_like(region), where=region > 0)

    # one list of dimensions: the QIs, then the SAs (an SA value covers itself; the unknown SA, code -1,
    # covers every value; a value the source lacks, code -2, covers none)
    dims = [Dim(covers[i], lab[:, i], x[:, i]) for i in range(d)]
    dims += [Dim(Cover.of_sa(sa_sizes[j]), t[:, j] + 2, s[:, j]) for j in range(k)]
    fstar = np.zeros(len(x), dtype=np.float64)
    if len(x) and len(lab):
        shared = _Leaves(split(dims, np.arange(len(x)), np.arange(len(lab))), mass, fstar, inp.stopped)
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


def _covers(
    pairs: Mapping[str, npt.NDArray[np.int64]], x: npt.NDArray[np.int64], lab: npt.NDArray[np.int64]
) -> list[Cover]:
    """Per QI attribute, the cover of its label codes over its value codes."""
    attr = np.asarray(pairs["attr"], dtype=np.int64)
    pl = np.asarray(pairs["label"], dtype=np.int64)
    pv = np.asarray(pairs["value"], dtype=np.int64)
    covers: list[Cover] = []
    for i in range(x.shape[1]):
        sel = attr == i + 1
        n_labels = max(
            int(lab[:, i].max()) + 1 if len(lab) else 0, int(pl[sel].max()) + 1 if sel.any() else 0
        )
        n_values = max(int(x[:, i].max()) + 1 if len(x) else 0, int(pv[sel].max()) + 1 if sel.any() else 0)
        covers.append(Cover.of_pairs(pl[sel], pv[sel], n_labels, n_values))
    return covers


def _solve_leaf(leaf: Leaf | Pairs, mass: npt.NDArray[np.float64], fstar: npt.NDArray[np.float64]) -> None:
    """F* of one leaf's points (or of one batch of small leaves)."""
    leaf.solve(mass, fstar)


class _Leaves:
    """The leaves of one solve, taken one at a time (largest first) by the solving thread and by a helper:
    the caller, once it has nothing else to do but wait for the result (:meth:`KlInputs.help`). Numpy
    releases the interpreter lock in the array operations that make up a leaf, and the leaves write
    disjoint points of ``fstar``, so the two share the work on two cores."""

    def __init__(
        self,
        leaves: Sequence[Leaf | Pairs],
        mass: npt.NDArray[np.float64],
        fstar: npt.NDArray[np.float64],
        stopped: threading.Event | None = None,
    ) -> None:
        self._todo = sorted(leaves, key=lambda leaf: leaf.work)  # popped from the end
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
