"""KL-divergence of a release (SPEC §0.7, after TP §6.2 and (l,α) §3.1).

Every source row is a point of ``A_1 × … × A_d × S_1 × …``; ``F(x)`` = the fraction of source rows equal
to x. Every published row t* spreads mass ``1/|T*|`` uniformly over its region
``Π_i cover(t*[A_i]) × {t*[S]}``, so ``F*(x) = Σ_{t*: x ∈ region(t*)} 1 / (|T*|·|region(t*)|)`` and
``KL = Σ_{x: F(x) > 0} F(x)·ln(F(x)/F*(x))``. Covers come from :mod:`.covers` (hierarchy leaves under a
node, the whole domain — the hierarchy's leaf count — for ``*``, the domain values inside an interval).
An SA suppressed to "unknown" (NULL) is taken to cover every SA value that occurs in the source [D].

Set-based (``sql/metrics/kl.sql``): the distinct source points are joined, on SA equality and then on the
cover table one attribute at a time, to the distinct release patterns (label vector, SA, count); F* is
the sum of the pattern masses per point.

When some source point lies in no published region — typically because its rows were deleted and no
other published row generalizes over it — F*(x) = 0 and KL is infinite: reported as ``None`` with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..db import Database
from ..render import Ident, TableRef, render


@dataclass(frozen=True)
class KlRow:
    kl: float | None
    points: int
    uncovered: int


@dataclass(frozen=True)
class KlResult:
    kl: float | None
    note: str | None


def kl_divergence(
    db: Database,
    *,
    source: TableRef,
    release: TableRef,
    cover: TableRef,
    qi: Sequence[Ident],
    sa: Sequence[Ident],
    release_qi: Sequence[Ident],
    release_sa: Sequence[Ident],
    published_rows: int,
) -> KlResult:
    if published_rows == 0:
        return KlResult(None, "the release is empty, so F* is 0 everywhere and KL is infinite")
    q = render(
        "metrics/kl.sql",
        source=source,
        release=release,
        cover=cover,
        qi=list(qi),
        sa=list(sa),
        rqi=list(release_qi),
        rsa=list(release_sa),
    )
    row = db.fetch(q, KlRow)[0]
    if row.uncovered:
        return KlResult(
            None,
            f"{row.uncovered} of {row.points} distinct source points (QI values and SA) lie in no published "
            "row's region, so F*(x) = 0 there and KL is infinite; usually their rows were deleted by "
            "suppression",
        )
    return KlResult(float(row.kl or 0.0), None)
