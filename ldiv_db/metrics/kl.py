"""KL-divergence of a release (SPEC §0.7, after TP §6.2 and (l,α) §3.1).

Every source row is a point of ``A_1 × … × A_d × S_1 × …``; ``F(x)`` = the fraction of source rows equal
to x. Every published row t* spreads mass ``1/|T*|`` uniformly over its region
``Π_i cover(t*[A_i]) × {t*[S]}``, so ``F*(x) = Σ_{t*: x ∈ region(t*)} 1 / (|T*|·|region(t*)|)`` and
``KL = Σ_{x: F(x) > 0} F(x)·ln(F(x)/F*(x))``. Covers come from :mod:`.covers` (hierarchy leaves under a
node, the whole domain — the hierarchy's leaf count — for ``*``, the domain values inside an interval).
An SA suppressed to "unknown" (NULL) is taken to cover every SA value that occurs in the source [D].

How it is computed. Three queries (``sql/metrics/kl_points.sql``, ``kl_patterns.sql``, ``kl_cover.sql``)
reduce the source to its distinct points and the release to its distinct patterns (label vector, SA,
count), all as integer codes, plus the label → domain-value cover relation. The containment join of
points and patterns is then done with bitsets: the patterns are split by their first SA value (a point
can only lie in a pattern of its own SA value or of an unknown SA); within one split, for every attribute
and domain value, a bitset over the split's patterns marks the patterns whose label covers the value; a
point's covering patterns are the AND of its values' bitsets, and F* is the mass of the set bits. The
work is Σ over splits of points × patterns / 64 word operations per attribute — a fraction of a second
for Adult-sized releases, and memory is bounded by processing points in blocks. (A set-based SQL join
of points and patterns explodes on local-recoding releases, whose overlapping ranges make every point
compatible with many pattern prefixes.)

When some source point lies in no published region — typically because its rows were deleted and no
other published row generalizes over it — F*(x) = 0 and KL is infinite: reported as ``None`` with a note.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..db import Database
from ..render import Ident, TableRef, render

_BLOCK_WORDS = 1 << 22  # words of one block of point bitsets (32 MiB)
_DENSE_CELLS = 1 << 26  # cells of one dense (domain value × pattern) cover slice


@dataclass(frozen=True)
class KlResult:
    kl: float | None
    note: str | None


def kl_divergence(
    db: Database,
    *,
    source: TableRef,
    release: TableRef,
    domain: TableRef,
    labels: TableRef,
    cover: TableRef,
    qi: Sequence[Ident],
    sa: Sequence[Ident],
    release_qi: Sequence[Ident],
    release_sa: Sequence[Ident],
    published_rows: int,
) -> KlResult:
    if published_rows == 0:
        return KlResult(None, "the release is empty, so F* is 0 everywhere and KL is infinite")
    d, k = len(qi), len(sa)
    points = db.df(render("metrics/kl_points.sql", source=source, domain=domain, qi=list(qi), sa=list(sa)))
    patterns = db.df(
        render(
            "metrics/kl_patterns.sql",
            source=source,
            release=release,
            labels=labels,
            sa=list(sa),
            rqi=list(release_qi),
            rsa=list(release_sa),
        )
    )
    pairs = db.df(render("metrics/kl_cover.sql", cover=cover, labels=labels, domain=domain))

    x = points[[f"x{i}" for i in range(1, d + 1)]].to_numpy(np.int64).reshape(len(points), d)
    s = points[[f"s{i}" for i in range(1, k + 1)]].to_numpy(np.int64).reshape(len(points), k)
    n = points["n"].to_numpy(np.float64)
    lab = patterns[[f"l{i}" for i in range(1, d + 1)]].to_numpy(np.int64).reshape(len(patterns), d)
    t = patterns[[f"t{i}" for i in range(1, k + 1)]].to_numpy(np.int64).reshape(len(patterns), k)
    c = patterns["c"].to_numpy(np.float64)

    # per attribute: the boolean cover matrix label × value (labels and domains are small)
    attr = pairs["attr"].to_numpy(np.int64)
    pl = pairs["label"].to_numpy(np.int64)
    pv = pairs["value"].to_numpy(np.int64)
    covers: list[npt.NDArray[np.bool_]] = []
    for i in range(d):
        sel = attr == i + 1
        n_labels = int(lab[:, i].max()) + 1 if len(lab) else 0
        n_values = max(int(x[:, i].max()) + 1 if len(x) else 0, int(pv[sel].max()) + 1 if sel.any() else 0)
        m = np.zeros((max(n_labels, int(pl[sel].max()) + 1 if sel.any() else 0), n_values), dtype=bool)
        m[pl[sel], pv[sel]] = True
        covers.append(m)
    # SA domains: every SA value of the source (an unknown SA covers them all)
    sa_sizes = [int(s[:, j].max()) + 1 if len(s) else 0 for j in range(k)]

    region = np.ones(len(patterns), dtype=np.float64)
    for i in range(d):
        region *= covers[i].sum(axis=1)[lab[:, i]]
    for j in range(k):
        region *= np.where(t[:, j] == -1, sa_sizes[j], 1)
    mass = np.divide(c / float(published_rows), region, out=np.zeros_like(region), where=region > 0)

    fstar = _fstar(x, s, lab, t, mass, covers, sa_sizes)
    covered = fstar > 0
    uncovered = int((~covered).sum())
    if uncovered:
        return KlResult(
            None,
            f"{uncovered} of {len(points)} distinct source points (QI values and SA) lie in no published "
            "row's region, so F*(x) = 0 there and KL is infinite; usually their rows were deleted by "
            "suppression",
        )
    f = n / n.sum()
    return KlResult(math.fsum((f * np.log(f / fstar)).tolist()), None)


def _fstar(
    x: npt.NDArray[np.int64],
    s: npt.NDArray[np.int64],
    lab: npt.NDArray[np.int64],
    t: npt.NDArray[np.int64],
    mass: npt.NDArray[np.float64],
    covers: Sequence[npt.NDArray[np.bool_]],
    sa_sizes: Sequence[int],
) -> npt.NDArray[np.float64]:
    """F*(x) of every point: the mass of the patterns whose region contains it."""
    fstar = np.zeros(len(x), dtype=np.float64)
    if len(x) == 0 or len(lab) == 0:
        return fstar
    k = s.shape[1]
    splits: list[tuple[int, int, int]]
    if k:
        keys = s[:, 0]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        ends = np.r_[starts[1:], len(keys)]
        splits = [(int(keys[a]), int(a), int(b)) for a, b in zip(starts, ends, strict=True)]
    else:
        splits = [(0, 0, len(x))]
    for value, a, b in splits:
        if k:
            members = np.flatnonzero((t[:, 0] == value) | (t[:, 0] == -1))
        else:
            members = np.arange(len(lab))
        if len(members) == 0:
            continue
        # the attributes of this split: the QIs, then the SAs after the first (an SA value covers itself,
        # an unknown SA covers every value)
        tables = [(_value_bitsets(covers[i], lab[members, i]), x[a:b, i]) for i in range(len(covers))]
        for j in range(1, k):
            sa_cover = np.zeros((sa_sizes[j] + 2, sa_sizes[j]), dtype=bool)  # rows: code + 2 (-2, -1, 0..)
            sa_cover[1, :] = True
            sa_cover[np.arange(sa_sizes[j]) + 2, np.arange(sa_sizes[j])] = True
            tables.append((_value_bitsets(sa_cover, t[members, j] + 2), s[a:b, j]))
        fstar[a:b] = _masses(tables, mass[members])
    return fstar


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
    subsets = ((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1).astype(np.float64)  # 256 × 8
    byte_sums = (padded.reshape(-1, 8) @ subsets.T).ravel()  # (words·8) × 256: mass of each byte value
    out = np.zeros(n_points, dtype=np.float64)
    block = max(1, _BLOCK_WORDS // max(words, 1))
    for lo in range(0, n_points, block):
        hi = min(n_points, lo + block)
        acc: npt.NDArray[np.uint64] | None = None
        for bits, values in tables:
            rows = np.where(values[lo:hi] < 0, bits.shape[0] - 1, values[lo:hi])
            acc = bits[rows] if acc is None else np.bitwise_and(acc, bits[rows], out=acc)
        assert acc is not None
        r, w = np.nonzero(acc)
        if len(r) == 0:
            continue
        set_bytes = acc[r, w].view(np.uint8).reshape(-1, 8)  # little-endian: byte b holds patterns 8b..8b+7
        slots = w.astype(np.int64)[:, None] * 2048 + np.arange(0, 2048, 256)[None, :]
        contrib = np.take(byte_sums, slots + set_bytes).sum(axis=1)
        out[lo:hi] = np.bincount(r, weights=contrib, minlength=hi - lo)
    return out
