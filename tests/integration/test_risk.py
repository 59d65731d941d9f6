"""``ldiv risk`` against a brute force per record (hypothesis): every figure re-derived in plain Python
from the rows — each record's class counted by scanning the table, each population match by scanning the
population — independent of the SQL's frequency-of-frequencies."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

QI = ["a", "b", "c"]
_names = itertools.count()


def store(db: Database, name: str, rows: list[tuple[Any, ...]]) -> None:
    frame = pd.DataFrame(rows, columns=QI).astype({"a": "int64", "b": "object", "c": "object"})
    db.con.register("__frame", frame)
    db.con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM __frame')
    db.con.unregister("__frame")


def brute(
    rows: list[tuple[Any, ...]], population: list[tuple[Any, ...]] | None, tau: Fraction
) -> dict[str, Any]:
    """Per record: its class (records equal on every QI), its population class, its risks; then the
    averages, maxima and shares the figures are, and the per-QI uniques by dropping each column."""
    n = len(rows)
    size = [sum(1 for s in rows if s == r) for r in rows]
    pros = [Fraction(1, s) for s in size]
    out: dict[str, Any] = {
        "classes": len(set(rows)),
        "prosecutor": (max(pros), sum(pros, Fraction(0)) / n, Fraction(sum(1 for p in pros if p > tau), n)),
        "uniques": Fraction(sum(1 for s in size if s == 1), n),
    }
    contrib = []
    for i in range(len(QI)):
        cut = [r[:i] + r[i + 1 :] for r in rows]
        alone = sum(1 for r in cut if cut.count(r) == 1)
        contrib.append(sum(1 for s in size if s == 1) - alone)
    out["contrib"] = contrib
    pop = population if population is not None else rows
    big = [sum(1 for p in pop if p == r) for r in rows]
    jour = [Fraction(1, b) for b in big]
    out["journalist"] = (max(jour), sum(jour, Fraction(0)) / n, Fraction(sum(1 for j in jour if j > tau), n))
    out["marketer"] = sum(jour, Fraction(0)) / n
    out["population_uniques"] = (
        None if population is None else Fraction(sum(1 for p in pop if pop.count(p) == 1), len(pop))
    )
    out["row_risk"] = sorted(zip(rows, size, [s == 1 for s in size], big, strict=True), key=repr)
    return out


row = st.tuples(st.integers(0, 3), st.sampled_from(["x", "y", "it's"]), st.sampled_from(["p", "q"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(row, min_size=1, max_size=30),
    extra=st.one_of(st.none(), st.lists(row, max_size=30)),
    tau=st.sampled_from([Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(1)]),
)
def test_every_figure_against_brute_force(
    db: Database, rows: list[tuple[Any, ...]], extra: list[tuple[Any, ...]] | None, tau: Fraction
) -> None:
    store(db, "t", rows)
    population = None if extra is None else rows + extra
    if population is not None:
        store(db, "pop", population)
    out = f"risk_rows_{next(_names)}"
    res = ldiv_db.risk(
        db, "t", qi=QI, threshold=str(tau), population_table="pop" if population else None, rows_out=out
    )
    want = brute(rows, population, tau)
    fig = {f.key: f.value for f in res.figures()}
    assert res.classes == want["classes"] and res.rows == len(rows)
    assert (fig["prosecutor_highest"], fig["prosecutor_average"], fig["prosecutor_above"]) == want[
        "prosecutor"
    ]
    assert (fig["journalist_highest"], fig["journalist_average"], fig["journalist_above"]) == want[
        "journalist"
    ]
    assert fig["marketer"] == want["marketer"]
    assert fig["sample_uniques"] == want["uniques"]
    assert [fig[f"qi_contribution:{q}"] * len(rows) for q in QI] == want["contrib"]
    assert fig.get("population_uniques") == want["population_uniques"]
    got = db.con.execute(
        f'SELECT a, b, c, class_size, sample_unique, {"population_size" if population else "class_size"}, prosecutor_risk, above_threshold FROM "{out}"'
    ).fetchall()
    assert sorted(((a, b, c), s, u, p) for a, b, c, s, u, p, _, _ in got) == sorted(
        [(r, s, u, p) for r, s, u, p in want["row_risk"]]
    )
    for *_, s, _, _, risk, above in got:
        assert risk == pytest.approx(1 / s) and above == (Fraction(1, s) > tau)


def test_a_release_is_measured_on_its_classes(db: Database) -> None:
    """A release with a group column: the classes are (group id, labels) — as ``ldiv check`` counts them —
    never the coarser label classes."""
    rows = [(i % 4, "x" if i % 3 else "y", "p", ["flu", "hiv", "cold", "acne"][i % 4]) for i in range(24)]
    frame = pd.DataFrame(rows, columns=[*QI, "dx"])
    db.con.register("__frame", frame)
    db.con.execute("CREATE TABLE src AS SELECT * FROM __frame")
    db.con.unregister("__frame")
    ldiv_db.anonymize(db, "src", QI, "dx", algorithm="tp", output="rel", l=2, kl=False)
    res = ldiv_db.risk(db, release="rel")  # the recorded QIs
    chk = ldiv_db.check(db, "rel", QI, "dx")
    assert res.partition.startswith("group_id and QI values")
    assert res.classes == chk.groups
    sizes = db.con.execute("SELECT count(*) FROM rel GROUP BY group_id, a, b, c").fetchall()
    assert res.prosecutor.average == Fraction(len(sizes), sum(s for (s,) in sizes))
    assert [q for q, _ in res.contributions] == QI


def test_bad_input_is_named(db: Database) -> None:
    store(db, "t", [(1, "x", "p"), (2, "x", "p")])
    with pytest.raises(BadInput, match="smaller than the data"):
        ldiv_db.risk(db, "t", qi=QI, population=1)
    with pytest.raises(BadInput, match="outside"):
        ldiv_db.risk(db, "t", qi=QI, threshold="1.5")
    with pytest.raises(BadInput, match="no quasi-identifiers"):
        ldiv_db.risk(db, "t")
    store(db, "small_pop", [(1, "x", "p")])
    with pytest.raises(BadInput, match="does not contain the data"):
        ldiv_db.risk(db, "t", qi=QI, population_table="small_pop")
    with pytest.raises(BadInput, match="already exists"):
        ldiv_db.risk(db, "t", qi=QI, rows_out="t")
