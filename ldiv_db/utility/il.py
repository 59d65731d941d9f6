"""NCP / IL — Xu, Wang, Pei et al. (KDD 2006), the metric BSGI uses (SPEC §0.7).

Per published cell with label u on attribute A:

* categorical: ``NCP = #leaves(u) / |A|``, 0 when u is a leaf; |A| = the hierarchy's leaf count (flat
  attribute without a hierarchy: ``*`` covers every distinct value, so NCP is 1 for ``*`` and 0 otherwise);
* numeric: ``NCP = (hi − lo) / (max_T A − min_T A)`` for an interval or a hierarchy node (its stored
  lo/hi, else the range of the leaves under it), 0 for a single value, 1 for ``*``; 0 when the source
  range is 0. The interval is first clipped to the source range ``[min_T, max_T]`` so NCP stays in [0, 1]
  (a hierarchy node such as ARX's age root ``*`` spans 1..100 while the data spans 17..90); the intervals
  BSGI/(l,α) publish are ``[min_G, max_G]`` and are not affected.

``IL = Σ_G |G|·Σ_i w_i·NCP_i(G)`` — which, since every row of a group carries the group's labels, is the
sum over published rows of ``Σ_i w_i·NCP_i(row)``. Exact: the categorical sum is an integer over |A|; the
numeric sum is a sum of doubles (exact for integer columns) over the source range.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .covers import AttributeSummary


def attribute_ncp(s: AttributeSummary) -> Fraction:
    """Σ over the published cells of one attribute of NCP (i.e. Σ_G |G|·NCP_A(G))."""
    if s.is_numeric:
        if s.min_t is None or s.max_t is None or s.max_t == s.min_t:
            return Fraction(0)
        return Fraction(s.ncp_span) / (Fraction(s.max_t) - Fraction(s.min_t))
    if s.domain_size == 0:
        return Fraction(0)
    return Fraction(s.ncp_cat, s.domain_size)


def information_loss(summaries: Sequence[AttributeSummary], weights: Sequence[Fraction]) -> Fraction:
    """``IL = Σ_i w_i · Σ_cells NCP_i`` (SPEC §0.7)."""
    return sum((w * attribute_ncp(s) for s, w in zip(summaries, weights, strict=True)), Fraction(0))
