"""Row- and class-level metrics: stars, DM, CAVG, CM (SPEC §0.5, §0.7, §5.4).

* **Stars**: the number of ``*`` QI cells of the release; a row with at least one is *starred*
  (SPEC §0.5 calls it suppressed).
* **DM** (discernibility): ``Σ_G |G|²`` over the published classes, plus ``|T|`` per deleted row
  (|T| = source rows).
* **CAVG**: ``(|T*| / #classes) / k`` with k = l (SPEC §0.7 [D]); |T*| = published rows.
* **CM**: each published row outside its class's majority value of the class column costs 1 (ties do not
  matter, only the top count is used), each deleted row 1.

A class is what :func:`ldiv_db.core.classes.class_keys` says: the rows with equal group id and QI labels where
the release publishes a group column, else equal QI labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..core.classes import ClassFacts
from ..db import Database
from ..sqlgen.render import Ident, TableRef, render


@dataclass(frozen=True)
class RowCounts:
    rows: int
    starred_rows: int
    sa_suppressed_rows: int
    sa_unknown_cells: int  # SA cells published as unknown (NULL)
    rows_with_suppressed_cells: int  # a '*' QI cell or an unknown SA (ldiv_db/util/words.py)
    # with pairs: the classes (group id and labels), their distinct group ids and label vectors
    # (release/same_partition.sql's figures)
    pairs: int | None = None
    groups: int | None = None
    label_vectors: int | None = None


def row_counts_and_classes(
    db: Database,
    release: TableRef,
    release_qi: Sequence[Ident],
    release_sa: Sequence[Ident],
    keys: Sequence[Ident],
    *,
    counted: bool = False,
    pairs: bool = False,
) -> tuple[RowCounts, ClassFacts]:
    """The release's row counts and the class-size histogram of the classes ``keys`` make
    (:func:`ldiv_db.core.classes.class_keys`), in one statement. ``counted``: ``release`` is a release
    aggregate whose rows stand for ``n`` rows each. ``pairs`` (``keys`` a group id and labels): the counts
    carry the classes' distinct group ids and label vectors too, so the verification need not group the
    release by them again (release/same_partition.sql)."""
    q = render(
        "metrics/rows.sql",
        release=release,
        rqi=list(release_qi),
        rsa=list(release_sa),
        counted=counted,
        keys=list(keys),
        pairs=pairs,
    )
    rows = db.rows(q)
    facts = ClassFacts.of([(int(r[5]), int(r[6])) for r in rows if r[5] is not None])
    counts = RowCounts(*(int(v) for v in rows[0][:5]))
    if pairs:
        counts = replace(counts, pairs=facts.classes, groups=int(rows[0][7]), label_vectors=int(rows[0][8]))
    return counts, facts


def minority_rows(
    db: Database, release: TableRef, keys: Sequence[Ident], klass: Ident, *, counted: bool = False
) -> int:
    """The published rows outside their class's majority value of ``klass`` (CM of the published rows)."""
    q = render("metrics/class_minority.sql", release=release, keys=list(keys), klass=klass, counted=counted)
    return int(db.scalar(q))


def discernibility(c: ClassFacts, *, deleted_rows: int, source_rows: int) -> int:
    """``DM = Σ_G |G|² + deleted·|T|``."""
    return c.dm + deleted_rows * source_rows


def cavg(rows: int, classes: int, l: int | None) -> Fraction | None:
    """``(|T*| / #classes) / l``; None without l or without classes."""
    if l is None or classes == 0:
        return None
    return Fraction(rows, classes * l)
