"""Frozen records of what the partition queries return."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class PartitionSummary:
    """Table-level statistics of one SA over a partition (SPEC §0.2)."""

    s: int
    groups: int
    rows: int
    k: int
    distinct_l: int
    min_entropy: float | None
    frequency_l: Fraction | None  # min |G|/h(G); None when no group has a known SA value

    @property
    def entropy_l(self) -> float | None:
        return None if self.min_entropy is None else math.exp(self.min_entropy)


@dataclass(frozen=True)
class RecursiveBound:
    """Recursive (c,l)-diversity holds for every c > c_above (SPEC §0.2)."""

    l: int
    c_above: Fraction


@dataclass(frozen=True)
class Verdict:
    """A privacy model's verdict on a partition."""

    satisfied: bool
    violating_groups: int
    violating_rows: int
    worst_gids: tuple[int, ...]
    worst: tuple[tuple[float, int, int], ...] = ()  # (severity, size, gid) of worst_gids, in their order


@dataclass(frozen=True)
class MinRm:
    """#MinRm of one violated value in one group (SPEC §5.7 Lemma 3)."""

    gid: int
    s: int
    v: str
    n: int
    size: int
    min_rm: int


@dataclass(frozen=True)
class Pillar:
    gid: int
    s: int
    v: str
    n: int


@dataclass(frozen=True)
class Confidence:
    gid: int
    s: int
    v: str
    n: int
    size: int

    @property
    def conf(self) -> Fraction:
        return Fraction(self.n, self.size)
