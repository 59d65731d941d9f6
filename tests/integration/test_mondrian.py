"""Mondrian (the BSGI paper's baseline) through ``ldiv_db.anonymize``: random tables against a recursive
pure-Python Mondrian (same median and tie rules), both split forms, hostile names and the errors."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import Hierarchy, import_hierarchy
from tests.integration.test_bsgi import CITY, make_table, paper

H_CITY = Hierarchy(CITY)


def reference_mondrian(
    rows: Sequence[tuple[int, str, tuple[Any, ...]]], l: int, form: str
) -> list[list[int]]:
    """Recursive strict Mondrian with the module's rules: widest normalized QI first (ties: QI order),
    lower-median cut (< m when m is the maximum), both halves must pass the split test."""
    kinds = ["hierarchy", "numeric", "flat"]
    flat_rank = {v: i for i, v in enumerate(sorted({r[2][2] for r in rows}))}

    def ordinal(r: tuple[int, str, tuple[Any, ...]], a: int) -> int:
        v = r[2][a]
        return H_CITY.node_id(v) if a == 0 else (v if a == 1 else flat_rank[v])

    ages = [r[2][1] for r in rows]
    spans = [H_CITY.domain_size, max(ages) - min(ages), len(flat_rank) - 1]

    def width(part: Sequence[Any], a: int) -> Fraction:
        xs = [ordinal(r, a) for r in part]
        if kinds[a] == "hierarchy":
            u = H_CITY.lca_many([r[2][0] for r in part])
            return Fraction(0) if H_CITY.is_leaf(u) else Fraction(H_CITY.n_leaves(u), spans[0])
        return Fraction(max(xs) - min(xs), spans[a]) if spans[a] else Fraction(0)

    def passes(half: Sequence[Any]) -> bool:
        counts: dict[str, int] = {}
        for r in half:
            counts[r[1]] = counts.get(r[1], 0) + 1
        if form == "frequency":
            return bool(half) and l * max(counts.values()) <= len(half)
        return len(counts) >= l

    out: list[list[int]] = []

    def split(part: list[Any]) -> None:
        for a in sorted(range(3), key=lambda a: (-width(part, a), a)):
            if width(part, a) <= 0:
                continue
            xs = sorted(ordinal(r, a) for r in part)
            m = xs[(len(xs) + 1) // 2 - 1]
            strict = m == xs[-1]
            left = [r for r in part if (ordinal(r, a) < m if strict else ordinal(r, a) <= m)]
            right = [r for r in part if r not in left]
            if left and right and passes(left) and passes(right):
                split(left)
                split(right)
                return
        out.append(sorted(r[0] for r in part))

    split(list(rows))
    return sorted(out)


@st.composite
def tables(draw: Any) -> tuple[list[tuple[int, str, tuple[Any, ...]]], int]:
    n = draw(st.integers(4, 30))
    rows = [
        (
            rid,
            draw(st.sampled_from("PQRST")),
            (draw(st.sampled_from("abcdef")), draw(st.integers(20, 40)), draw(st.sampled_from("xyz"))),
        )
        for rid in range(n)
    ]
    return rows, draw(st.integers(2, 3))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), form=st.sampled_from(["distinct", "frequency"]))
def test_random_tables_match_the_reference(tmp_path: Path, table: tuple[list[Any], int], form: str) -> None:
    rows, l_value = table
    sa = [r[1] for r in rows]
    counts = pd.Series(sa).value_counts()
    if len(counts) < l_value or (form == "frequency" and l_value * counts.max() > len(sa)):
        return  # infeasible: the pipeline refuses it (tested below)
    with Database.open(":memory:") as db:
        frame = pd.DataFrame(
            {
                "city": [r[2][0] for r in rows],
                "age": [r[2][1] for r in rows],
                "kind": [r[2][2] for r in rows],
                "sa": sa,
            }
        )
        make_table(db, "r", frame)
        f = tmp_path / "city.csv"
        f.write_text("\n".join(";".join(x) for x in CITY) + "\n", encoding="utf-8")
        import_hierarchy(db, "r", "city", f)
        res = ldiv_db.anonymize(
            db, "r", ["city", "age", "kind"], "sa", algorithm="mondrian", l=l_value, output="m",
            model=form, replace=True,
        )  # fmt: skip
        assert res.verified and res.rows_published == len(rows)
        got = db.con.execute(
            "SELECT list(source_rowid ORDER BY source_rowid) FROM ldiv.release_row WHERE release_id = ? "
            "GROUP BY group_id",
            [res.release_id],
        ).fetchall()
        assert sorted(list(g[0]) for g in got) == reference_mondrian(rows, l_value, form)
        assert res.details["form"] == form


def test_paper_table(db: Database) -> None:
    paper(db)
    r = ldiv_db.anonymize(
        db, "t", ["Gender", "Postcode", "Age"], "Disease", algorithm="mondrian", l=2, output="m"
    )
    assert r.verified and r.rows_published == 7 and r.model == "distinct"
    assert r.details["classes"] == r.groups


def test_the_groups_are_counted_by_the_partition(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mondrian counts its classes itself: the release's group labels are not counted by a statement of
    their own (catalog/row_count.sql of the labels table), and the count is the one the verification finds."""
    paper(db)
    counted: list[str] = []
    log = Database._log

    def logged(self: Database, query: Any, rows: int) -> None:
        if query.name == "catalog/row_count.sql":
            counted.append(query.sql)
        log(self, query, rows)

    monkeypatch.setattr(Database, "_log", logged)
    r = ldiv_db.anonymize(
        db, "t", ["Gender", "Postcode", "Age"], "Disease", algorithm="mondrian", l=2, output="m"
    )
    assert r.verified and r.groups == r.details["classes"] == 2
    assert counted and not [sql for sql in counted if "labels" in sql]


def test_frequency_form_with_the_distinct_model(db: Database) -> None:
    paper(db)
    r = ldiv_db.anonymize(
        db, "t", ["Gender", "Postcode", "Age"], "Disease", algorithm="mondrian", l=2, output="m",
        mondrian_form="frequency",
    )  # fmt: skip
    assert r.verified and r.details["form"] == "frequency"


def test_hostile_names(hostile_db: Database) -> None:
    from fixtures.hostile import HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE

    r = ldiv_db.anonymize(
        hostile_db, HOSTILE_TABLE, HOSTILE_QI, HOSTILE_SA, algorithm="mondrian", l=2, output="it's out"
    )
    assert r.verified and r.rows_published == 12


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"model": "unique-distinct"}, "cannot target"),
        ({"model": "frequency", "mondrian_form": "distinct"}, "does not guarantee"),
        ({"mondrian_form": "median"}, "distinct or frequency"),
    ],
)
def test_bad_input_is_a_clear_error(db: Database, kw: dict[str, Any], match: str) -> None:
    paper(db)
    with pytest.raises(BadInput, match=match) as info:
        ldiv_db.anonymize(
            db, "t", ["Gender", "Postcode", "Age"], "Disease", algorithm="mondrian", l=2, output="m", **kw
        )
    assert info.value.hint


@pytest.mark.parametrize("sas", [["sa"], ["sa", "sb"]])
def test_a_null_number_is_a_clear_error(sas: list[str]) -> None:
    """With --null-as-value a NULL reaches Mondrian's ordinals: its vector has no number to cut at, so the
    run stops naming the column (the NULL-ordinal rows are counted in the (vector, value) cells of every
    SA), whichever vector holds it."""
    with Database.open(":memory:") as db:
        db.con.execute(
            "CREATE TABLE t AS SELECT i AS age, ['a', 'b', 'c'][i % 3 + 1] AS city, 'd' || (i % 5) AS sa, "
            "'e' || (i % 4) AS sb FROM range(40) r(i)"
        )
        db.con.execute("UPDATE t SET age = NULL WHERE age IN (7, 30)")
        with pytest.raises(BadInput, match="QI 'age' has NULL values") as info:
            ldiv_db.anonymize(
                db, "t", ["city", "age"], sas, algorithm="mondrian", l=2, output="m", null_as_value=True
            )
        assert info.value.hint
