"""The IL cost model BSGI's greedy minimizes (SPEC §0.7), as integer arrays over QI codes.

Each QI is one of three kinds, exactly as the pipeline publishes and measures it (``release/labels_lca``,
``metrics/il``): ``hierarchy`` (a categorical QI with a stored taxonomy: NCP = #leaves(LCA)/|A|, 0 for a
leaf), ``numeric`` (NCP = (max − min)/(max_T − min_T)) and ``flat`` (a categorical QI without a taxonomy:
NCP = 1 once two values mix). A class's state per QI is its LCA node (hierarchy), its ``[lo, hi]``
(numeric) or its single value code, −1 once mixed (flat).

Costs are exact integers: every weighted NCP term is scaled by one common denominator ``D`` (the lcm of
the denominators of w_i/|A_i| and w_i/R_i), so ties compare exactly as SPEC §0.3 demands. When a numeric
QI is not integer-valued, or ``D`` would overflow 64-bit sums, the costs are doubles (``exact=False``) and
near-equal costs tie within a relative 1e-12.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from ...shared.trees import Kind, Tree

FloatArray = npt.NDArray[np.float64]
CostArray = npt.NDArray[Any]  # int64 (exact costs) or float64

_INT_LIMIT = 2**52  # largest total cost kept in int64 (also exact in a double)


@dataclass
class Attribute:
    """One QI as the greedy sees it: per-row codes and how to price a mix of them."""

    name: str
    kind: Kind
    weight: Fraction
    tree: Tree | None = None  # hierarchy
    lo: float = 0.0  # numeric: the source's min and max
    hi: float = 0.0
    integral: bool = True  # numeric: integer-valued column
    values: np.ndarray | None = None  # numeric: value of each code (codes are ranks); None: codes are values
    # set by CostModel: the scaled cost of one unit
    unit: int | float = 0
    node_cost: CostArray | None = None  # hierarchy: scaled NCP of each node (0 for leaves)

    @property
    def span(self) -> float:
        return self.hi - self.lo


class CostModel:
    """Scaled, weighted NCP per attribute: ``cost(state, codes)`` and the state after adding a code."""

    def __init__(self, attrs: Sequence[Attribute]) -> None:
        self.attrs = list(attrs)
        terms: list[Fraction] = []
        exact = True
        for a in self.attrs:
            if a.kind == "hierarchy":
                assert a.tree is not None
                terms.append(a.weight / max(a.tree.domain, 1))
            elif a.kind == "numeric":
                if a.span > 0:
                    if not a.integral or not float(a.span).is_integer():
                        exact = False
                    else:
                        terms.append(a.weight / int(a.span))
            else:
                terms.append(a.weight)
        denom = 1
        for t in terms:
            denom = denom * t.denominator // math.gcd(denom, t.denominator)
        # the largest possible total: every attribute at NCP 1
        top = sum((Fraction(a.weight) for a in self.attrs), Fraction(0)) * denom
        if top > _INT_LIMIT:
            exact = False
        self.exact = exact
        self.denominator = denom if exact else 1
        for a in self.attrs:
            if a.kind == "hierarchy":
                assert a.tree is not None
                leaf = a.tree.n_leaves == 1
                if exact:
                    per_leaf = a.weight * denom / max(a.tree.domain, 1)
                    assert per_leaf.denominator == 1
                    a.unit = int(per_leaf)
                    a.node_cost = np.where(leaf, 0, a.tree.n_leaves * a.unit).astype(np.int64)
                else:
                    a.unit = float(a.weight) / max(a.tree.domain, 1)
                    a.node_cost = np.where(leaf, 0.0, a.tree.n_leaves * a.unit).astype(np.float64)
            elif a.kind == "numeric":
                if a.span <= 0:
                    a.unit = 0 if exact else 0.0
                elif exact:
                    per = a.weight * denom / int(a.span)
                    assert per.denominator == 1
                    a.unit = int(per)
                else:
                    a.unit = float(a.weight) / a.span
            else:
                a.unit = int(a.weight * denom) if exact else float(a.weight)

    @property
    def dtype(self) -> type[np.int64] | type[np.float64]:
        return np.int64 if self.exact else np.float64

    def ncp(self, cost: float) -> Fraction | float:
        """The weighted NCP a scaled cost stands for."""
        return Fraction(int(cost), self.denominator) if self.exact else float(cost)
