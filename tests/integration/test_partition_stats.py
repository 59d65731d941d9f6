"""Partition statistics in SQL against hand-computed values: pillars, confidences, #MinRm (SPEC §5.7
Lemma 3, Example 4 and T-FRAC), the recursive profile, and read-only attached sources."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pandas as pd

import ldiv_db
from ldiv_db.core.catalog import resolve_table
from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.db import Database
from ldiv_db.privacy import LPlus
from ldiv_db.sqlgen.render import TableRef, render

# l+-Optimize Fig. 1 rows 5-10 share <Uni, AnyCountry>: Asthma 3, Cancer 2, Flu 1 (SPEC §5.7 Example 4)
EXAMPLE4 = [("Uni", "Asthma")] * 3 + [("Uni", "Cancer")] * 2 + [("Uni", "Flu")] + [("Sec", "Flu")] * 2


def _db(rows: list[tuple[str, str]]) -> Database:
    db = Database.open(":memory:")
    frame = pd.DataFrame(rows, columns=["edu", "disease"])
    db.con.register("f", frame)
    db.con.execute("CREATE TABLE t AS SELECT * FROM f")
    return db


def _evaluator(db: Database) -> SqlEvaluator:
    t = resolve_table(db, "t")
    return SqlEvaluator(db, t.ref, [t.column("edu").ident], [t.column("disease").ident]).build()


def _thresholds(db: Database, ev: SqlEvaluator, theta: dict[str, Fraction]) -> TableRef:
    target = ev.work("th")
    db.run(render("privacy/value_table.sql", target=target))
    db.insert_frame(
        target,
        pd.DataFrame(
            [(1, v, t.numerator, t.denominator) for v, t in theta.items()], columns=["s", "v", "p", "q"]
        ),
    )
    return target


def test_example4_min_rm() -> None:
    db = _db(EXAMPLE4)
    ev = _evaluator(db)
    th = _thresholds(db, ev, {})
    rm = ev.min_rm(th, Fraction(1, 3))
    # <Uni>: only Asthma is violated (3 > 6/3): ceil((3 - 2)/(2/3)) = 2 (Example 4);
    # <Sec> holds Flu twice: θ = 1/3 makes both violating, and Lemma 3 deletes both
    assert sorted((r.v, r.n, r.size, r.min_rm) for r in rm) == [("Asthma", 3, 6, 2), ("Flu", 2, 2, 2)]


def test_t_frac_exact_min_rm() -> None:
    db = _db([("a", "x")] * 10)
    ev = _evaluator(db)
    th = _thresholds(db, ev, {"x": Fraction(9, 10)})
    assert [r.min_rm for r in ev.min_rm(th, Fraction(1))] == [10]  # floats would give 11


def test_pillars_and_confidences() -> None:
    db = _db(EXAMPLE4)
    ev = _evaluator(db)
    pillars = {(p.v, p.n) for p in ev.pillars()}
    assert pillars == {("Asthma", 3), ("Flu", 2)}
    conf = {(c.v, c.conf) for c in ev.confidences() if c.size == 6}
    assert conf == {("Asthma", Fraction(1, 2)), ("Cancer", Fraction(1, 3)), ("Flu", Fraction(1, 6))}
    assert ev.value_counts()[1][:2] == [("Asthma", 3), ("Flu", 3)]  # ties by value


def test_lplus_verdict_and_group_ok_agree() -> None:
    db = _db(EXAMPLE4)
    ev = _evaluator(db)
    model = LPlus((3,))
    v = ev.judge(model)
    assert (v.satisfied, v.violating_groups, v.violating_rows) == (False, 2, 8)
    assert not model.group_ok({"Asthma": 3, "Cancer": 2, "Flu": 1})
    assert model.group_ok({"Asthma": 2, "Cancer": 2, "Flu": 2})


def test_check_reads_an_attached_read_only_database(tmp_path: Path) -> None:
    src = tmp_path / "source.duckdb"
    con = Database.open(src, migrate=False)
    con.con.execute("CREATE SCHEMA hr")
    con.con.execute(
        "CREATE TABLE hr.people AS SELECT * FROM (VALUES ('a','x'),('a','y'),('b','x'),('b','z')) v(q, s)"
    )
    con.close()
    work = Database.open(tmp_path / "work.duckdb", attach={"src": str(src)})
    res = ldiv_db.check(work, "src.hr.people", ["q"], "s", model="distinct", l=2)
    assert res.satisfied and res.rows == 4 and res.table == "src.hr.people"
    out = ldiv_db.anonymize(
        work, "src.hr.people", ["q"], "s", algorithm="full-domain", levels={"q": 0}, l=2, output="people_rel"
    )
    assert out.verified and out.rows_published == 4
    work.close()
