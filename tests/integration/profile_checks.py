"""partition/recursive_profile.sql against its definition, shared by the DuckDB tests
(tests/integration/test_recursive_profile.py), the PostgreSQL ones (tests/engines/test_pg_recursive_profile.py)
and Spark's (tests/spark/test_spark_recursive_profile.py).

A case is a counts table in either form the template reads (partition/group_counts.sql's: every count listed,
``ones`` 0; partition/stats_counts.sql's: the counts above 1 listed, NULL when there is none, and the ones
counted apart) and the distinct l per SA. The definition: a group's values in descending order are its
listed counts followed by ``ones`` ones; for l in 2..max_ls[s], the bound is the largest r_1 / (r_l + … + r_q)
over SA s's groups, an exact fraction, as :meth:`ldiv_db.core.evaluator.SqlEvaluator.recursive_profile`
reads it from the statement's candidates."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query, TableRef, render

# lists of either side of the template's split (a list of more than 32 counts is unnested), and around it
LENGTHS = (0, 1, 2, 3, 7, 31, 32, 33, 34, 60, 150)


@dataclass(frozen=True)
class Group:
    gid: int
    s: int
    counts: tuple[int, ...] | None  # descending; None: none listed (the statistics' form)
    ones: int

    @property
    def distinct(self) -> int:
        return len(self.counts or ()) + self.ones


@dataclass(frozen=True)
class Case:
    groups: tuple[Group, ...]
    max_ls: tuple[int, ...]


def by_definition(case: Case) -> dict[int, list[tuple[int, Fraction]]]:
    out: dict[int, list[tuple[int, Fraction]]] = {}
    for s, top in enumerate(case.max_ls, 1):
        mine = [[*(g.counts or ()), *[1] * g.ones] for g in case.groups if g.s == s]
        tails = [
            list(itertools.accumulate(reversed(values)))[::-1] for values in mine
        ]  # tails[i] = sum(values[i:])
        for l_value in range(2, top + 1):
            best = None
            for values, tail in zip(mine, tails, strict=True):
                ratio = Fraction(values[0], tail[l_value - 1])
                best = ratio if best is None else max(best, ratio)
            if best is not None:
                out.setdefault(s, []).append((l_value, best))
    return out


def random_case(rng: random.Random, *, listed_ones: bool) -> Case:
    """Up to three SAs, each with a few groups of random lengths; ``listed_ones``: every count listed, no
    ones apart (group_counts' form), else the ones apart (stats_counts'). Ties are made on purpose (equal
    groups, equal counts); each SA's l goes up to its groups' least distinct count, or less."""
    groups: list[Group] = []
    tops = []
    for s in range(1, rng.randint(1, 3) + 1):
        shape = [rng.randint(1, 6) for _ in range(rng.randint(1, 4))]
        for _ in range(rng.randint(1, 5)):
            m = rng.choice(LENGTHS)
            high = rng.choice([2, 3, 9, 1000])
            if listed_ones:
                counts = sorted((rng.randint(1, high) for _ in range(max(m, 2))), reverse=True)
                group = Group(len(groups), s, tuple(counts), 0)
            else:
                ones = rng.choice([0, 0, 1, 2, 5, 40])
                counts = sorted((rng.randint(2, high) for _ in range(m)), reverse=True)
                if len(counts) + ones < 2:
                    ones = 2 - len(counts)
                group = Group(len(groups), s, tuple(counts) or None, ones)
            groups.append(group)
            if rng.random() < 0.3:  # a tie in the maximum ratio: the same values in another group
                groups.append(Group(len(groups), s, group.counts, group.ones))
            if rng.random() < 0.2:
                groups.append(Group(len(groups), s, tuple(sorted(shape, reverse=True)), 0))
        least = min(g.distinct for g in groups if g.s == s)
        tops.append(rng.choice([least, least, max(1, least - 1), min(least, 2), 1]))
    return Case(tuple(groups), tuple(tops))


def _values_sql(case: Case) -> str:
    def listed(g: Group) -> str:
        if g.counts is None:
            return "CAST(NULL AS BIGINT[])"
        return "CAST([" + ", ".join(str(c) for c in g.counts) + "] AS BIGINT[])"

    rows = ", ".join(
        f"(CAST({g.gid} AS BIGINT), CAST({g.s} AS INTEGER), {listed(g)}, CAST({g.ones} AS BIGINT))"
        for g in case.groups
    )
    return f"SELECT * FROM (VALUES {rows}) AS v(gid, s, counts, ones)"


def profile(db: Database, case: Case, name: str = "profile_case") -> dict[int, list[tuple[int, Fraction]]]:
    """The template's bounds on ``db`` for the case (its counts written to a work table first), read as
    the evaluator reads them: the largest exact fraction among each (s, l)'s candidates."""
    table: TableRef = db.work_table(name)
    temp = "TEMP " if table.catalog == "temp" else ""  # as the templates' create_table writes it
    create = f"CREATE OR REPLACE {temp}TABLE {table.sql()} AS {_values_sql(case)}"
    db.run(Query("test profile counts", create))
    try:
        q = render(
            "partition/recursive_profile.sql",
            {"max_l": max(case.max_ls), "max_ls": list(case.max_ls)},
            counts=table,
        )
        out: dict[int, list[tuple[int, Fraction]]] = {}
        for s, l_value, cands in db.rows(q):
            exact = max(Fraction(int(a), int(b)) for a, b in cands)
            out.setdefault(int(s), []).append((int(l_value), exact))
        return out
    finally:
        db.drop_work_table(table)


def one_class(values: int, seed: int = 0) -> Case:
    """One group of ``values`` listed counts (the histogram's form), its l up to all of them."""
    rng = random.Random(seed)
    counts = sorted((rng.randint(1, 50) for _ in range(values)), reverse=True)
    return Case((Group(0, 1, tuple(counts), 0),), (values,))


def assert_same(got: dict[int, list[tuple[int, Fraction]]], case: Case) -> None:
    want = by_definition(case)
    assert got == want, _first_difference(got, want)


def _first_difference(
    got: dict[int, list[tuple[int, Fraction]]], want: dict[int, list[tuple[int, Fraction]]]
) -> str:
    for s in sorted(set(got) | set(want)):
        a, b = got.get(s, []), want.get(s, [])
        for x, y in zip(a, b, strict=False):
            if x != y:
                return f"SA {s}: got {x}, the definition {y}"
        if len(a) != len(b):
            return f"SA {s}: {len(a)} bounds, the definition {len(b)}"
    return "equal"


def cases(seed: int, count: int) -> Sequence[Case]:
    rng = random.Random(seed)
    return [random_case(rng, listed_ones=bool(i % 2)) for i in range(count)]
