"""(l,α) top-down specialization through ``ldiv_db.anonymize``: SPEC §3.3's Table 8 trace (exact), several
QIs, the three model variants, errors, and random tables checked for validity and coverage."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from fixtures.papers import paper_tables, read_categories, read_table
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import fix_drawn_seed, identity_seeds, make_table


def groups_of(db: Database, release_id: int) -> list[list[int]]:
    rows = db.con.execute(
        "SELECT list(source_rowid + 1 ORDER BY source_rowid) FROM ldiv.release_row "
        "WHERE release_id = ? GROUP BY group_id",
        [release_id],
    ).fetchall()
    return sorted(list(r[0]) for r in rows)


def table8(db: Database) -> dict[str, int]:
    t = paper_tables()["lalpha_table8"]
    make_table(db, "t", read_table(t).sort_values("row_id").drop(columns=["row_id"]).astype({"Zipcode": str}))
    import_hierarchy(db, "t", "Zipcode", t.hierarchies["Zipcode"])
    assert t.categories is not None
    return read_categories(t.categories)


def test_table8_trace(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    cats = table8(db)
    fix_drawn_seed(monkeypatch, identity_seeds(db, "t")[0])  # ties in row id order, as SPEC's trace
    res = ldiv_db.anonymize(
        db,
        "t",
        ["Zipcode"],
        "Disease",
        algorithm="topdown",
        output="o",
        l=2,
        model="distinct-alpha",
        model_options={"alpha": 1, "categories": cats},
    )
    assert res.verified
    assert groups_of(db, res.release_id) == [[1, 2], [3, 4]]
    labels = db.con.execute(
        "SELECT rr.source_rowid + 1, o.Zipcode FROM ldiv.release_row rr "
        "JOIN (SELECT DISTINCT Zipcode, group_id FROM o) o ON o.group_id = rr.group_id ORDER BY 1"
    ).fetchall()
    assert labels == [(1, "4351"), (2, "4351"), (3, "435*"), (4, "435*")]
    m = res.metrics
    assert m["dm"] == 8
    assert m["cavg"] == pytest.approx(1)
    expected_kl = 0.5 * math.log(4 / 3) + 0.25 * math.log(2 / 3) + 0.25 * math.log(2)
    assert expected_kl == pytest.approx(0.215762, abs=1e-6)
    assert m["kl"] == pytest.approx(expected_kl, abs=1e-9)


def test_topdown_default_model_is_distinct_alpha(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    cats = table8(db)
    fix_drawn_seed(monkeypatch, identity_seeds(db, "t")[0])
    res = ldiv_db.anonymize(
        db,
        "t",
        "Zipcode",
        "Disease",
        algorithm="topdown",
        output="o",
        l=2,
        model_options={"alpha": 1, "categories": cats},
    )
    assert res.model == "distinct-alpha"
    assert groups_of(db, res.release_id) == [[1, 2], [3, 4]]


def test_topdown_needs_hierarchies(db: Database) -> None:
    cats = table8(db)
    db.con.execute("ALTER TABLE t ADD COLUMN age INTEGER DEFAULT 30")
    with pytest.raises(BadInput, match="hierarchy build"):
        ldiv_db.anonymize(
            db,
            "t",
            ["Zipcode", "age"],
            "Disease",
            algorithm="topdown",
            output="o",
            l=2,
            model="distinct-alpha",
            model_options={"alpha": 1, "categories": cats},
        )


def test_topdown_refuses_infeasible_root(db: Database) -> None:
    cats = table8(db)
    with pytest.raises(BadInput):
        ldiv_db.anonymize(
            db,
            "t",
            "Zipcode",
            "Disease",
            algorithm="topdown",
            output="o",
            l=2,
            model="distinct-alpha",
            model_options={"alpha": 3, "categories": cats},
        )


@pytest.mark.parametrize("model", ["unique-distinct", "lplus"])
def test_topdown_refuses_models_it_cannot_target(db: Database, model: str) -> None:
    table8(db)
    with pytest.raises(BadInput, match="topdown cannot target") as err:
        ldiv_db.anonymize(db, "t", "Zipcode", "Disease", algorithm="topdown", output="o", l=2, model=model)
    assert "distinct, entropy, recursive" in (err.value.hint or "")


SA = ["HIV", "Cancer", "Phthisis", "Hepatitis", "Obesity", "Asthma", "Flu", "Indigestion"]
CATS = {v: i // 2 + 1 for i, v in enumerate(SA)}


def _hier(path: Path, leaves: list[str], fanout: int) -> None:
    """A 3-level hierarchy: leaf; block of `fanout` leaves; *."""
    lines = [f"{v};grp-{v[0]}{i // fanout};*" for i, v in enumerate(leaves)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 3), st.sampled_from(SA)), min_size=6, max_size=40
    ),
    variant=st.sampled_from(["distinct-alpha", "entropy-alpha", "recursive-alpha"]),
)
def test_random_tables_verified(tmp_path: Path, data: list[tuple[int, int, str]], variant: str) -> None:
    frame = pd.DataFrame(
        {"a": [f"a{x}" for x, _, _ in data], "b": [f"b{y}" for _, y, _ in data], "s": [s for _, _, s in data]}
    )
    with Database.open(":memory:") as db:
        make_table(db, "t", frame)
        _hier(tmp_path / "a.csv", [f"a{i}" for i in range(6)], 3)
        _hier(tmp_path / "b.csv", [f"b{i}" for i in range(4)], 2)
        import_hierarchy(db, "t", "a", tmp_path / "a.csv")
        import_hierarchy(db, "t", "b", tmp_path / "b.csv")
        opts = {"alpha": 1, "categories": CATS, "c": 3}
        from ldiv_db.privacy.l_alpha import LAlpha

        model = LAlpha(variant.removesuffix("-alpha"), (2,), 1, CATS, c=3)
        if not model.group_ok(frame["s"].value_counts().to_dict()):
            with pytest.raises(BadInput):
                ldiv_db.anonymize(
                    db,
                    "t",
                    ["a", "b"],
                    "s",
                    algorithm="topdown",
                    output="o",
                    l=2,
                    model=variant,
                    model_options=opts,
                )
            return
        res = ldiv_db.anonymize(
            db, "t", ["a", "b"], "s", algorithm="topdown", output="o", l=2, model=variant, model_options=opts
        )
        assert res.verified
        assert res.rows_published == len(frame)
        groups = groups_of(db, res.release_id)
        assert sorted(r for g in groups for r in g) == list(range(1, len(frame) + 1))
        for g in groups:
            assert model.group_ok(frame.iloc[[r - 1 for r in g]]["s"].value_counts().to_dict())
