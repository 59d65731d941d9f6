"""Row- and group-level metrics: stars, DM, CAVG, CM (SPEC §0.5, §0.7, §5.4).

* **Stars**: the number of ``*`` QI cells of the release; a row with at least one is *starred*
  (SPEC §0.5 calls it suppressed).
* **DM** (discernibility): ``Σ_G |G|²`` over the published groups, plus ``|T|`` per deleted row
  (|T| = source rows).
* **CAVG**: ``(|T*| / #groups) / k`` with k = l (SPEC §0.7 [D]); |T*| = published rows.
* **CM**: each published row outside its group's majority class costs 1 (a group's majority class is
  the class with the most rows; ties do not matter, only the top count is used), each deleted row 1.

A group is the value of the release's group column when it has one, else an identical QI-label vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..db import Database
from ..render import Ident, TableRef, render


@dataclass(frozen=True)
class RowCounts:
    rows: int
    starred_rows: int
    sa_suppressed_rows: int


@dataclass(frozen=True)
class GroupCounts:
    groups: int
    dm_published: int
    cm_published: int


def row_counts(
    db: Database,
    release: TableRef,
    release_qi: Sequence[Ident],
    release_sa: Sequence[Ident],
    *,
    counted: bool = False,
) -> RowCounts:
    """``counted``: ``release`` is a release aggregate whose rows stand for ``n`` rows each."""
    q = render(
        "metrics/rows.sql", release=release, rqi=list(release_qi), rsa=list(release_sa), counted=counted
    )
    return db.fetch(q, RowCounts)[0]


def group_counts(
    db: Database,
    release: TableRef,
    release_qi: Sequence[Ident],
    *,
    group: Ident | None,
    klass: Ident | None,
    counted: bool = False,
) -> GroupCounts:
    q = render(
        "metrics/groups.sql", release=release, rqi=list(release_qi), group=group, klass=klass, counted=counted
    )
    return db.fetch(q, GroupCounts)[0]


def discernibility(g: GroupCounts, *, deleted_rows: int, source_rows: int) -> int:
    """``DM = Σ_G |G|² + deleted·|T|``."""
    return g.dm_published + deleted_rows * source_rows


def cavg(rows: int, groups: int, l: int | None) -> Fraction | None:
    """``(|T*| / #groups) / l``; None without l or without groups."""
    if l is None or groups == 0:
        return None
    return Fraction(rows, groups * l)


def classification(g: GroupCounts, *, deleted_rows: int) -> int:
    """``CM = published minority-class rows + deleted rows``."""
    return g.cm_published + deleted_rows
