"""ARX's "Loss" metric, ``Metric.createLossMetric()`` (ARX 3.9, class ``MetricMDNMLoss`` with
``DomainShareMaterialized`` and ``ILMultiDimensionalGeometricMean``; read in arx-deidentifier/arx,
``src/main/org/deidentifier/arx/metric/v2/``). Described here, implemented independently.

Defaults: gs-factor 0.5, which makes the generalization factor g = 1 and the suppression factor s = 1;
aggregate = geometric mean; attribute weights all equal.

* **Domain share** of a generalized value v at level k (``DomainShareMaterialized``): the number of rows
  of the hierarchy file that carry v at level k, divided by the number of rows of the file (the domain
  size, which may exceed the values present in the data). For a tree hierarchy this is
  ``#leaves(v) / |A|``: a leaf has share 1/|A|, the root 1. We use the label's cover size (see
  :mod:`.covers`), which is the same number for a label that is a node of the stored hierarchy.
* **Per attribute j** (``getInformationLossInternal``): sum over equivalence classes of
  ``count·share·g`` for classes that are published, and ``count`` (share 1, since s = 1) for suppressed
  records (ARX keeps them as outliers; in our release they are the deleted rows, source − release).
  So ``L_j = Σ_published rows share_j(label) + deleted``.
* **Normalisation** (``normalizeGeneralized``): with N = the number of input records (``tuples``) and
  ``min = g·N/|A_j|`` (everything at leaf level), ``max = N``: ``v_j = max(0, (L_j − min)/(max − min))``.
  In exact terms ``v_j = (Σ rows·#leaves + deleted·|A_j| − N) / (N·(|A_j| − 1))``; we take 0 when
  |A_j| = 1 (ARX's 0/0 falls to 0 through its ``result >= 0 ? result : 0`` test).
* **Aggregate** (``ILMultiDimensionalGeometricMean.getAggregate``):
  ``Π_j ((v_j + 1)·w_j)^(1/d) − 1``, where the weights are the configured attribute weights divided by
  their maximum (all 1 by default; ``AbstractMetricMultiDimensional.initializeInternal``). The per-attribute
  min is 0 and max 1 (``initializeInternal`` of the metric), so the reported relative loss equals this
  value.

Reference (datasets README): Adult, 8 QIs, levels sex 0, age 4, race 1, marital 0, education 3,
country 2, workclass 2, salary 0, nothing suppressed → 0.5422; reproduced by the slow integration test.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .covers import AttributeSummary


def attribute_share_loss(s: AttributeSummary, *, source_rows: int, deleted_rows: int) -> Fraction:
    """ARX's normalised per-attribute loss ``v_j`` in [0, 1], exactly."""
    n, a = source_rows, s.domain_size
    if n <= 0 or a <= 1:
        return Fraction(0)
    return max(Fraction(s.cover_sum + deleted_rows * a - n, n * (a - 1)), Fraction(0))


def arx_loss(
    summaries: Sequence[AttributeSummary],
    *,
    source_rows: int,
    deleted_rows: int,
    weights: Sequence[Fraction],
) -> float:
    """ARX's Loss (gs = 0.5, geometric mean): 0 = nothing generalized, 1 = everything suppressed."""
    if not summaries:
        return 0.0
    top = max(weights)
    scaled = [w / top for w in weights] if top > 0 else [Fraction(1)] * len(weights)
    exponent = 1.0 / len(summaries)
    result = 1.0
    for s, w in zip(summaries, scaled, strict=True):
        v = attribute_share_loss(s, source_rows=source_rows, deleted_rows=deleted_rows)
        result *= ((float(v) + 1.0) * float(w)) ** exponent
    return result - 1.0
