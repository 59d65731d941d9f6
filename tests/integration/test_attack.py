"""The similarity attack (ldiv_db.commands.attack.similarity) on the (l,α) paper's Tables 5–7 (SPEC §3.2):
groups are the rows with equal QI labels."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from fixtures.papers import paper_tables, read_table
from ldiv_db.commands.attack import similarity
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

QI = ["Age", "Country", "Zipcode"]


def load(db: Database, name: str) -> None:
    frame = read_table(name).sort_values("row_id").drop(columns=["row_id"]).astype(str)
    db.con.register("__frame", frame)
    db.con.execute('CREATE OR REPLACE TABLE "t" AS SELECT * FROM __frame')
    db.con.unregister("__frame")


def categories() -> str:
    path = paper_tables()["lalpha_table5"].categories
    assert path is not None
    return str(path)


def test_table5_is_exposed(db: Database) -> None:
    load(db, "lalpha_table5")
    r = similarity(db, "t", QI, "Disease", categories())
    assert (r.groups, r.rows) == (3, 12)
    # {HIV,HIV,Cancer,Cancer} is all category 1 (the attacker learns "top secret"), {Flu,Flu,Flu,Indigestion}
    # all category 4: 8 rows exposed; the tie at confidence 1 reports the more sensitive category
    assert (r.single_category_groups, r.single_category_rows) == (2, 8)
    assert r.category_confidence == 1 and r.category == 1
    assert r.value_confidence == F(3, 4) and r.value == "Flu"
    d = r.to_dict()
    assert d["max_category_confidence"] == "1" and d["single_category_share"] == pytest.approx(2 / 3)
    assert "single-category" in r.render_text()


def test_table6_and_7_resist(db: Database) -> None:
    load(db, "lalpha_table6")
    r6 = similarity(db, "t", QI, "Disease", categories())
    assert (r6.groups, r6.single_category_rows) == (3, 0)
    assert r6.value_confidence == F(1, 2)
    assert r6.category_confidence == F(3, 4)  # {HIV,HIV,Cancer,Flu}: three rows in category 1
    load(db, "lalpha_table7")
    r7 = similarity(db, "t", QI, "Disease", categories())
    assert (r7.groups, r7.single_category_rows) == (3, 0)
    assert r7.value_confidence == F(1, 2)
    assert r7.category_confidence == F(1, 2)


def test_group_column_and_mapping(db: Database) -> None:
    load(db, "lalpha_table5")
    db.con.execute("ALTER TABLE t ADD COLUMN g INTEGER DEFAULT 1")
    cats = {
        "HIV": 1,
        "Cancer": 1,
        "Phthisis": 2,
        "Hepatitis": 2,
        "Obesity": 3,
        "Asthma": 3,
        "Flu": 4,
        "Indigestion": 4,
    }
    r = similarity(db, "t", None, "Disease", cats, group_column="g")
    assert (r.groups, r.single_category_rows) == (1, 0)
    assert r.value_confidence == F(3, 12)


def test_uncategorized_values_are_named(db: Database) -> None:
    load(db, "lalpha_table5")
    with pytest.raises(BadInput, match="Indigestion"):
        similarity(
            db,
            "t",
            QI,
            "Disease",
            {"HIV": 1, "Cancer": 1, "Phthisis": 2, "Hepatitis": 2, "Obesity": 3, "Asthma": 3, "Flu": 4},
        )
