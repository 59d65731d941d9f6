"""A check's table-level statistics come from the partition's shapes (partition/shapes.sql: its groups of
equal size and pillar height per SA) reduced in Python (``core/evaluator.py: shape_summaries``): they are
the statistics of the groups themselves, computed here over the groups one by one, and the frequency l is
the least |G|/h(G) exactly where two ratios are one double."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ldiv_db.core.evaluator import shape_summaries
from ldiv_db.core.stats import PartitionSummary

Group = tuple[int, int, int, int, float | None]  # s, size, h, distinct values, entropy


def _shapes(groups: list[Group]) -> list[tuple[Any, ...]]:
    """The rows partition/shapes.sql returns for these groups (part 0), in a shuffled order."""
    by: dict[tuple[int, int, int], list[Group]] = {}
    for g in groups:
        by.setdefault(g[:3], []).append(g)
    rows = []
    for (s, size, h), gs in by.items():
        entropies = [g[4] for g in gs if g[4] is not None]
        rows.append((0, s, size, h, len(gs), min(g[3] for g in gs), min(entropies) if entropies else None, 0))
    random.Random(len(rows)).shuffle(rows)
    return rows


def _brute(groups: list[Group]) -> list[PartitionSummary]:
    out = []
    for s in sorted({g[0] for g in groups}):
        mine = [g for g in groups if g[0] == s]
        entropies = [g[4] for g in mine if g[4] is not None]
        known = [Fraction(g[1], g[2]) for g in mine if g[2] > 0]
        out.append(
            PartitionSummary(
                s=s,
                groups=len(mine),
                rows=sum(g[1] for g in mine),
                k=min(g[1] for g in mine),
                distinct_l=min(g[3] for g in mine),
                min_entropy=min(entropies) if entropies else None,
                frequency_l=min(known) if known else None,
            )
        )
    return out


def test_the_shapes_give_the_groups_statistics() -> None:
    rng = random.Random(57)
    for _ in range(200):
        groups: list[Group] = []
        for s in (1, 2)[: rng.randint(1, 2)]:
            for _ in range(rng.randint(1, 30)):
                size = rng.randint(1, 9)
                h = rng.randint(0, size)  # h = 0: every value of the group unknown
                n = 0 if h == 0 else rng.randint(1, size - h + 1)
                groups.append((s, size, h, n, None if h == 0 else round(rng.random() * 2, 3)))
        assert shape_summaries(_shapes(groups)) == _brute(groups)


def test_the_frequency_l_is_the_exact_least_ratio() -> None:
    # 3·10^15 + 1 over 10^15 and 3 over 1 are one double (3.000000000000001 rounds to 3.0 at 1e-16):
    # the exact least is 3, which a float comparison could miss
    big = 10**16
    groups: list[Group] = [(1, 3 * big + 1, big, 2, 0.5), (1, 3, 1, 2, 0.6), (1, 7, 2, 3, 0.9)]
    rows = _shapes(groups)
    for ordered in (rows, rows[::-1]):  # whichever shape comes first
        got = shape_summaries(ordered)
        assert got[0].frequency_l == Fraction(3) and got == _brute(groups)
    assert float(Fraction(3 * big + 1, big)) == 3.0  # the two ratios are one double
