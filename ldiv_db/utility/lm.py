"""LM — Iyengar's loss metric as l+-Optimize uses it (SPEC §0.7, §5.4).

A published cell with label u on attribute A costs ``(#leaves(u) − 1) / (|A| − 1)`` (0 when |A| = 1),
where #leaves(u) is the size of u's cover (SPEC §0.7: leaves of a node, the whole domain for ``*``; for an
interval that is not a hierarchy node, the domain values inside it — the distinct source values when the
column has no hierarchy, so ``(#distinct source values in [lo, hi] − 1)/(#distinct source values − 1)``).
A row costs the sum over the QI attributes.

Suppression, as l+-Optimize's ``cost(T, Cut)`` counts it (SPEC §5.4), so that ``lm`` of a release equals
the cost the cut search minimised:

* a row whose SA was replaced by "unknown" (NULL in the release; vioSA/allSA) is kept and costs its
  generalization cost plus ``c_s = |QI|``;
* a deleted row (source rows − release rows; vioRec/allRec) costs only ``c_s = 2·|QI|``.

``lm`` is the **total** over all source rows (not a mean); divide by |T| for a per-row figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .covers import AttributeSummary


def attribute_lm(s: AttributeSummary) -> Fraction:
    """Σ over the published cells of one attribute of the LM cell cost."""
    if s.domain_size <= 1:
        return Fraction(0)
    return Fraction(s.lm_num, s.domain_size - 1)


def loss_metric(
    summaries: Sequence[AttributeSummary], *, sa_suppressed_rows: int, deleted_rows: int
) -> Fraction:
    """Total LM cost: generalization of the published cells + |QI| per SA-suppressed row + 2·|QI| per
    deleted row (SPEC §5.4)."""
    d = len(summaries)
    generalization = sum((attribute_lm(s) for s in summaries), Fraction(0))
    return generalization + d * sa_suppressed_rows + 2 * d * deleted_rows
