"""What BSGI's SQL preparation hands to the greedy, the refinement and the writer (but the rows)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...core.catalog import Column
from ...sqlgen.render import Ident
from .greedy.cost import CostModel


@dataclass
class Coded:
    """What the SQL preparation hands to the greedy, the refinement and the writer (but the rows)."""

    codes: Any  # the coded work table
    extra: list[Ident]  # secondary SA columns of it
    qcols: list[Ident]  # its QI code columns
    individual: Column | None
    weights: list[Fraction]
    cost: CostModel
    sizes: np.ndarray  # rows per primary SA bucket
    order: list[int]  # QIs, most costly to mix first
    orders: list[list[int]]  # the greedy's locality orders
    distinct: list[int]  # per QI, its distinct codes

    @property
    def variant(self) -> bool:
        return self.individual is not None or bool(self.extra)
