"""KL-divergence (SPEC §0.7) against a brute-force computation on random small releases (hypothesis):
two QIs (a flat categorical one and a numeric one published as values, intervals or ``*``), two SAs
(either may be published as unknown, NULL), deleted rows. The KL of ``compute_metrics`` is checked both on
the release table and on a release aggregate (the release pipeline's path), against an oracle that
enumerates every source point and every published row and spells the definition out.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import TableRef
from ldiv_db.utility import Measured, compute_metrics
from ldiv_db.utility.compute import ReleaseAggregate

CATS = ["a", "b", "c"]
SA1 = ["x", "y", "z"]
SA2 = ["p", "q"]

source_rows = st.lists(
    st.tuples(st.sampled_from(CATS), st.integers(0, 5), st.sampled_from(SA1), st.sampled_from(SA2)),
    min_size=1,
    max_size=12,
)


@st.composite
def releases(draw: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """A source and a release of it: every source row is deleted or published with its QIs generalized
    (the value itself, '*', or for the numeric QI an interval around it) and each SA kept or unknown."""
    rows = draw(source_rows)
    release = []
    for cat, num, s1, s2 in rows:
        if draw(st.integers(0, 5)) == 0:
            continue  # deleted
        cat_label = draw(st.sampled_from([cat, "*"]))
        lo = draw(st.integers(0, num))
        hi = draw(st.integers(num, 5))
        num_label = draw(st.sampled_from([str(num), "*", f"{lo}-{hi}"]))
        release.append(
            (
                cat_label,
                num_label,
                None if draw(st.integers(0, 4)) == 0 else s1,
                None if draw(st.integers(0, 4)) == 0 else s2,
                draw(st.integers(1, 3)),
            )
        )
    return rows, release


def oracle(rows: list[tuple[Any, ...]], release: list[tuple[Any, ...]]) -> float | None:
    """SPEC §0.7 spelled out: F*(x) = Σ over published rows t whose region holds x of 1/(|T*|·|region|)."""
    cat_dom = {r[0] for r in rows}
    num_dom = {r[1] for r in rows}
    sa_doms = [{r[2] for r in rows}, {r[3] for r in rows}]

    def cat_cover(label: str) -> set[str]:
        return set(cat_dom) if label == "*" else {label} & cat_dom

    def num_cover(label: str) -> set[int]:
        if label == "*":
            return set(num_dom)
        lo, _, hi = label.partition("-")
        return {v for v in num_dom if int(lo) <= v <= int(hi or lo)}

    f = Counter(rows)
    kl = 0.0
    for point, count in f.items():
        fstar = 0.0
        for t in release:
            covers: list[set[Any]] = [cat_cover(t[0]), num_cover(t[1])]
            covers += [sa_doms[j] if t[2 + j] is None else {t[2 + j]} for j in range(2)]
            if all(point[i] in covers[i] for i in range(4)):
                fstar += 1.0 / (len(release) * math.prod(len(c) for c in covers))
        if fstar == 0.0:
            return None
        p = count / len(rows)
        kl += p * math.log(p / fstar)
    return kl


def _load(db: Database, rows: list[tuple[Any, ...]], release: list[tuple[Any, ...]]) -> None:
    con = db.con
    con.execute("CREATE OR REPLACE TABLE src (cat VARCHAR, num INTEGER, s1 VARCHAR, s2 VARCHAR)")
    con.executemany("INSERT INTO src VALUES (?, ?, ?, ?)", rows)
    con.execute(
        "CREATE OR REPLACE TABLE rel (cat VARCHAR, num VARCHAR, s1 VARCHAR, s2 VARCHAR, group_id BIGINT)"
    )
    if release:
        con.executemany("INSERT INTO rel VALUES (?, ?, ?, ?, ?)", release)
    con.execute(
        "CREATE OR REPLACE TABLE agg AS SELECT group_id AS gid, cat AS q1, num AS q2, s1, s2, count(*) AS n "
        "FROM rel GROUP BY ALL"
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(releases())
def test_kl_matches_brute_force(case: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    rows, release = case
    with Database.open(":memory:") as db:
        _load(db, rows, release)
        source, rel = resolve_table(db, "src"), resolve_table(db, "rel")
        qi, sa = source.columns_of(["cat", "num"]), source.columns_of(["s1", "s2"])
        want = oracle(rows, release) if release else None
        on_table = compute_metrics(db, Measured(source, rel, qi, sa))
        on_aggregate = compute_metrics(
            db, Measured(source, rel, qi, sa), aggregate=ReleaseAggregate(TableRef("agg"), len(rows))
        )
        for got in (on_table, on_aggregate):
            if want is None:
                assert got.kl is None and got.kl_note
            else:
                assert got.kl is not None, got.kl_note
                assert math.isclose(got.kl, want, rel_tol=1e-9, abs_tol=1e-12)
