"""BSGI through ``ldiv_db.anonymize`` (SPEC §2): the paper's worked example (E-BSGI) as an exact test,
random tables against the pure-Python reference and Theorem 1, the variants, ``ldiv check``, the CLI,
hostile names and the errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, HierarchyError, LdivError
from ldiv_db.taxonomy import Hierarchy, import_hierarchy
from tests.integration.frames import fix_drawn_seed, identity_seeds, key_order, make_table
from tests.unit.test_bsgi_engine import reference
from tests.unit.test_bsgi_schedule import max_groups

PAPER = PAPER_TABLES["bsgi_table1"]
QI = list(PAPER.qi)


def paper(db: Database) -> None:
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    for col, path in PAPER.hierarchies.items():
        import_hierarchy(db, "t", col, path)


def groups_of(db: Database, release_id: int) -> list[list[int]]:
    """Published classes as sorted lists of 1-based row ids, sorted (group ids are opaque)."""
    rows = db.con.execute(
        "SELECT list(source_rowid + 1 ORDER BY source_rowid) FROM ldiv.release_row "
        "WHERE release_id = ? GROUP BY group_id",
        [release_id],
    ).fetchall()
    return sorted(list(r[0]) for r in rows)


def paper_order(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs without --seed draw a seed whose tie key orders the paper's rows as its row ids do: the order
    the paper breaks its ties by (SPEC §0.6), so the release is the paper's exactly."""
    fix_drawn_seed(monkeypatch, identity_seeds(db, "t")[0])


def run(db: Database, **kw: Any) -> ldiv_db.AnonymizeResult:
    args: dict[str, Any] = {"algorithm": "bsgi", "l": 2, "output": "rel", "replace": True}
    args.update(kw)
    table = args.pop("table", "t")
    qi = args.pop("qi", QI)
    sa = args.pop("sa", list(PAPER.sa))
    return ldiv_db.anonymize(db, table, qi, sa, **args)


# ---------------------------------------------------------------------------- E-BSGI (SPEC §2.5)
@pytest.mark.parametrize(
    "options",
    [{}, {"exact": True}, {"incorporate": "increase"}, {"window": 1}, {"exact": "true", "weights": "1,1,1"}],
)
def test_paper_tables_1_to_4(db: Database, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--refine none``: the paper's algorithm exactly (SPEC §2.5), its ties broken in row order."""
    paper(db)
    paper_order(db, monkeypatch)
    r = run(db, refine="none", **options)
    assert groups_of(db, r.release_id) == [[1, 2], [3, 4, 7], [5, 6]]
    assert Fraction(r.metrics["il"]).limit_denominator(1000) == Fraction(59, 6)
    assert r.metrics["dm"] == 17
    assert r.metrics["avg_class_size"] == pytest.approx(7 / 3)
    assert r.verified and r.model == "unique-distinct"
    d = r.details
    assert d["l"] == 2 and d["classes"] == 3 and d["residual_rows"] == 1
    assert d["unique_distinct"] and not d["unique_distinct_exact"]
    assert d["classes_exactly_l"] == 2 and d["classes_l_plus_1"] == 1 and d["classes_with_repeats"] == 0
    assert d["il_weighted"] == pytest.approx(59 / 6)
    assert d["mode"] == ("exact" if options.get("exact") else "fast")


def test_paper_table_4_labels(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    paper(db)
    paper_order(db, monkeypatch)
    r = run(db, refine="none")
    rows = db.con.execute(
        'SELECT "Gender", "Postcode", "Age", "Disease", dense_rank() OVER (ORDER BY "Age") FROM rel '
        'ORDER BY "Age", "Disease"'
    ).fetchall()
    assert rows == [
        ("F", "10077", "20-25", "Flu", 1),
        ("F", "10077", "20-25", "Obesity", 1),
        ("*", "1007*", "25-40", "Cancer", 2),
        ("*", "1007*", "25-40", "Flu", 2),
        ("*", "1007*", "25-40", "Obesity", 2),
        ("*", "10075", "50", "Cancer", 3),
        ("*", "10075", "50", "Obesity", 3),
    ]
    assert len({g for (g,) in db.con.execute("SELECT group_id FROM rel").fetchall()}) == 3
    assert r.rows_published == r.rows_in == 7


def test_l_auto_reports_the_l_used(db: Database) -> None:
    paper(db)
    r = run(db, l="auto")
    assert r.l == 2 and r.details["l"] == 2


def test_ldiv_check_accepts_l_plus_1_and_rejects_a_repeat(db: Database) -> None:
    """An incorporated class holds l+1 distinct values and passes; a repeated value fails (SPEC §2.1)."""
    paper(db)
    run(db)
    ok = ldiv_db.check(db, "rel", None, "Disease", group_column="group_id", model="unique-distinct", l=2)
    assert ok.satisfied
    db.con.execute("CREATE TABLE bad AS SELECT * FROM rel")
    db.con.execute(
        "UPDATE bad SET \"Disease\" = 'Flu' WHERE group_id = (SELECT min(group_id) FROM bad)"
    )  # a class of two or three rows, all Flu
    bad = ldiv_db.check(db, "bad", None, "Disease", group_column="group_id", model="unique-distinct", l=2)
    assert not bad.satisfied


# ---------------------------------------------------------------------------- random tables
@st.composite
def tables(draw: Any) -> tuple[list[tuple[int, str, tuple[Any, ...]]], int]:
    n = draw(st.integers(3, 12))
    rows = [
        (
            rid,
            draw(st.sampled_from("PQRST")),
            (draw(st.sampled_from("abcdef")), draw(st.integers(20, 30)), draw(st.sampled_from("xyz"))),
        )
        for rid in range(n)
    ]
    l_value = draw(st.integers(2, 3))
    if len({r[1] for r in rows}) < l_value:
        rows += [(n, "Y", ("a", 20, "x")), (n + 1, "Z", ("b", 21, "y"))]
    return rows, l_value


CITY = [
    ["a", "ab", "*"],
    ["b", "ab", "*"],
    ["c", "cde", "*"],
    ["d", "cde", "*"],
    ["e", "cde", "*"],
    ["f", "f", "*"],
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables())
def test_random_tables_match_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: tuple[list[Any], int]
) -> None:
    """Validity, Theorem 1 (as many classes as any grouping of l distinct values allows, by brute force)
    and equality with the literal SPEC §2.2 reference, through the whole pipeline."""
    rows, l_value = table
    with Database.open(":memory:") as db:
        frame = pd.DataFrame(
            {
                "city": [r[2][0] for r in rows],
                "age": [r[2][1] for r in rows],
                "kind": [r[2][2] for r in rows],
                "sa": [r[1] for r in rows],
            }
        )
        make_table(db, "r", frame)
        f = tmp_path / "city.csv"
        f.write_text("\n".join(";".join(x) for x in CITY) + "\n", encoding="utf-8")
        import_hierarchy(db, "r", "city", f)
        fix_drawn_seed(monkeypatch, 5)
        sizes = tuple(sorted(frame["sa"].value_counts().tolist(), reverse=True))
        # where the l-Property fails (l·n1 > n), Unique Distinct is refused: distinct is asked for by name
        model = "unique-distinct" if l_value * sizes[0] <= len(rows) else "distinct"
        res = run(db, table="r", qi=["city", "age", "kind"], sa="sa", l=l_value, refine="none", model=model)
        assert res.verified and res.rows_published == len(rows) and res.model == model
        assert res.details["classes"] == max_groups(sizes, l_value)
        specs: list[tuple[str, Hierarchy | None]] = [
            ("hierarchy", Hierarchy(CITY)),
            ("numeric", None),
            ("flat", None),
        ]
        # the reference breaks its ties by row id: give it the rows numbered in the seeded key's order
        rank = {rid: i for i, rid in enumerate(key_order(db, "r", 5))}
        by_rank = {i: rid for rid, i in rank.items()}
        expected = reference([(rank[rid], sa, vals) for rid, sa, vals in rows], specs, l_value)
        assert groups_of(db, res.release_id) == sorted(sorted(by_rank[i] + 1 for i in e) for e in expected)
        counts = db.con.execute(
            "SELECT count(*), count(DISTINCT sa) FROM rel GROUP BY group_id ORDER BY group_id"
        ).fetchall()
        assert all(distinct >= l_value for _, distinct in counts)
        assert (
            sum(1 for size, distinct in counts if size == distinct == l_value)
            == res.details["classes_exactly_l"]
        )


# ---------------------------------------------------------------------------- variants (SPEC §2.4)
def variant_table(db: Database) -> None:
    frame = pd.DataFrame(
        {
            "person": [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8],
            "age": [30, 31, 40, 41, 50, 52, 60, 61, 33, 44, 55, 66],
            "zip": ["a", "a", "b", "b", "c", "c", "d", "d", "e", "f", "a", "b"],
            "disease": [
                "flu",
                "hiv",
                "flu",
                "cancer",
                "hiv",
                "flu",
                "cancer",
                "flu",
                "hiv",
                "cancer",
                "flu",
                "hiv",
            ],
            "salary": ["lo", "hi", "mid", "lo", "hi", "mid", "lo", "hi", "mid", "lo", "hi", "mid"],
        }
    )
    make_table(db, "v", frame)


def test_rows_travel_as_numpy_columns(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fetched cells and the written assignment are numpy columns, never a pandas frame (at 1M rows a
    frame built only to be taken apart costs a copy of every column), on the variants' path too."""
    variant_table(db)
    framed: list[str] = []
    engine = type(db)
    df, insert_frame = engine.df, engine.insert_frame

    def watched_df(self: Database, query: Any, **kw: Any) -> pd.DataFrame:
        framed.append(query.name)
        return df(self, query, **kw)

    def watched_insert(self: Database, table: Any, frame: Any) -> None:
        if isinstance(frame, pd.DataFrame):
            framed.append(f"insert {table.sql()}")
        insert_frame(self, table, frame)

    monkeypatch.setattr(engine, "df", watched_df)
    monkeypatch.setattr(engine, "insert_frame", watched_insert)
    r = run(db, table="v", qi=["age", "zip"], sa="disease", individual_column="person")
    assert r.verified
    assert not [name for name in framed if "cells" in name or "assignment" in name]


def test_individual_column(db: Database) -> None:
    variant_table(db)
    r = run(db, table="v", qi=["age", "zip"], sa="disease", individual_column="person")
    assert r.verified
    assert r.details["variant"]["individual_column"] == "person"
    repeats = db.con.execute(
        "SELECT count(*) FROM (SELECT rr.group_id, v.person FROM ldiv.release_row rr "
        "JOIN v ON v.rowid = rr.source_rowid WHERE rr.release_id = ? GROUP BY ALL HAVING count(*) > 1)",
        [r.release_id],
    ).fetchone()
    assert repeats == (r.details["variant"]["classes_with_repeated_individuals"],)
    selected = db.con.execute(
        "SELECT count(*) FROM (SELECT group_id FROM rel GROUP BY group_id HAVING count(*) = 2)"
    ).fetchone()
    assert selected is not None and selected[0] >= 1


def test_several_sensitive_attributes(db: Database) -> None:
    variant_table(db)
    r = run(db, table="v", qi=["age", "zip"], sa=["disease", "salary"])
    assert r.verified
    assert r.details["variant"]["secondary_sa"] == ["salary"]
    per_class = db.con.execute(
        "SELECT count(*), count(DISTINCT disease), count(DISTINCT salary) FROM rel GROUP BY group_id"
    ).fetchall()
    assert all(d >= 2 and s >= 2 for _, d, s in per_class)
    assert all(n == d == s for n, d, s in per_class if n == 2)


# ---------------------------------------------------------------------------- l-Property violated
def test_repeats_when_the_l_property_fails(db: Database) -> None:
    """One value in more than 1/l of the rows: residual rows repeat values. Asked for by name, distinct is
    published and recorded as such; Unique Distinct (the default) is refused up front with the largest
    feasible l, and a model Unique Distinct would have implied is refused once the classes repeat values."""
    frame = pd.DataFrame({"age": list(range(20, 30)), "sa": ["a"] * 6 + ["b", "c", "b", "c"]})
    make_table(db, "s", frame)
    r = run(db, table="s", qi="age", sa="sa", l=2, model="distinct")
    assert r.verified and r.model == "distinct"
    assert not r.details["unique_distinct"] and r.details["classes_with_repeats"] > 0
    with pytest.raises(BadInput, match=r"⌊n/n1⌋ = 1"):
        run(db, table="s", qi="age", sa="sa", l=2)
    with pytest.raises(BadInput, match="l-Property") as err:
        run(db, table="s", qi="age", sa="sa", l=2, model="entropy")
    assert "--model distinct" in str(err.value.hint)


# ---------------------------------------------------------------------------- names, CLI, errors
def test_hostile_names(hostile_db: Database) -> None:
    from fixtures.hostile import HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE

    for mode in ({}, {"exact": True}):
        r = ldiv_db.anonymize(
            hostile_db, HOSTILE_TABLE, HOSTILE_QI, HOSTILE_SA, algorithm="bsgi", l=3, output='out "x"',
            replace=True, **mode,
        )  # fmt: skip
        assert r.verified and r.rows_published == 12


def test_hostile_names_with_labels_from_the_arrays(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two taxonomies and an integer QI: BSGI labels the classes itself (algorithms/shared/lca.py); the
    release under a hostile name is the one the template's labels give."""
    from fixtures.hostile import HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE
    from ldiv_db.algorithms import bsgi
    from ldiv_db.algorithms.shared import lca

    made: list[Any] = []

    def spy(*args: Any) -> Any:
        made.append(lca.lca_labels(*args))
        return made[-1]

    qi, out = HOSTILE_QI[:3], 'out "x"'
    releases = []
    for labeller in (spy, lambda *args: None):
        monkeypatch.setattr(bsgi, "lca_labels", labeller)
        r = ldiv_db.anonymize(
            hostile_db, HOSTILE_TABLE, qi, HOSTILE_SA, algorithm="bsgi", l=3, output=out, replace=True, seed=9
        )
        assert r.verified and r.rows_published == 12
        releases.append(
            (hostile_db.con.execute('SELECT * FROM "out ""x""" ORDER BY ALL').fetchall(), r.metrics)
        )
    assert made and made[0] is not None
    assert releases[0] == releases[1]
    labels = {(row[0], row[1], row[2]) for row in releases[0][0]}  # a taxonomy's LCA, an integer span
    assert ("x", "30-32", "1007*") in labels and ("z", "50-55", "10078") in labels


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ldiv_db.cli.main import main

    path = tmp_path / "p.duckdb"
    with Database.open(path) as db:
        paper(db)
    code = main(
        [
            "anonymize", str(path), "--table", "t", "--qi", "Gender,Postcode,Age", "--sa", "Disease",
            "--algorithm", "bsgi", "--l", "2", "--output", "rel", "--exact", "--weights", "1,1,2",
            "--incorporate", "increase", "--json", "--quiet",
        ]
    )  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["details"]["mode"] == "exact" and out["details"]["weights"] == ["1", "1", "2"]
    assert out["verified"]


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"model": "k-anonymity", "model_options": {"k": 2}}, BadInput, "cannot target"),
        ({"window": "0"}, BadInput, "window"),
        ({"batch": "x"}, BadInput, "batch"),
        ({"incorporate": "best"}, BadInput, "incorporate"),
        ({"weights": "1,2"}, BadInput, "weights for 3 QIs"),
        ({"weights": "height=2"}, BadInput, "not a QI"),
        ({"individual_column": "Disease"}, BadInput, "also an SA"),
        ({"individual_column": "nope"}, BadInput, "unknown column"),
        ({"exact": "perhaps"}, BadInput, "true or false"),
        ({"l": 4}, BadInput, "infeasible"),
    ],
)
def test_bad_input_is_a_clear_error(
    db: Database, kw: dict[str, Any], error: type[LdivError], match: str
) -> None:
    paper(db)
    with pytest.raises(error, match=match) as info:
        run(db, **kw)
    assert info.value.hint or "infeasible" in match


def test_value_missing_from_the_hierarchy(db: Database) -> None:
    paper(db)
    db.con.execute("INSERT INTO t VALUES (8, 'Hank', 'F', '10099', 33, 'Flu')")
    with pytest.raises(HierarchyError, match="10099"):
        run(db)


def test_seeded_random_first_pick(db: Database) -> None:
    """``--seed``: the paper's random t1 (Fig. 2 line 4); the same seed gives the same release."""
    paper(db)
    runs = [run(db, seed=s) for s in (3, 3)]
    assert runs[0].details["first_pick"] == "random (seed)"
    assert groups_of(db, runs[0].release_id) == groups_of(db, runs[1].release_id)
    assert all(r.verified and r.details["classes"] == 3 for r in runs)


def test_reported_il_uses_the_weights(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """--weights prices the greedy picks and the reported IL alike (SPEC §0.7: Σ |G|·Σ w_i NCP_i)."""
    paper(db)
    paper_order(db, monkeypatch)
    r = run(db, exact=True, weights="1,1,2", refine="none")
    rows = db.con.execute('SELECT "Gender", "Postcode", "Age" FROM rel').fetchall()

    def ncp_age(label: str) -> Fraction:
        lo, _, hi = label.partition("-")
        return Fraction(int(hi or lo) - int(lo), 50 - 20)

    # Gender {F, M} -> '*' and Postcode {10075, 10076, 10077} -> '1007*' -> '*': a generalized label covers all
    want = sum(
        (0 if g in ("F", "M") else 1) + (0 if p.startswith("1007") and p[-1] != "*" else 1) + 2 * ncp_age(a)
        for g, p, a in rows
    )
    assert r.metrics["il"] == pytest.approx(float(want), rel=1e-12) and want != Fraction(59, 6)
    unweighted = run(db, exact=True, refine="none")
    assert unweighted.metrics["il"] == pytest.approx(59 / 6, rel=1e-12)
