"""The metrics' classes of a release written with one label vector per group id (local recoding: labels
joined by group id, pipeline/verify.py ``one_vector_per_group``) are counted by the group id alone
(``ReleaseAggregate.by_group``): the same classes, sizes and DM as the published table grouped by its
group column and labels, and the same as the metrics counted by both on the same aggregate."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident
from ldiv_db.utility import groups as groups_module
from tests.integration.frames import make_table
from tests.integration.test_bsgi import paper

QI = ["age", "zip", "job"]


def _random_table(db: Database, seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    make_table(
        db,
        "r",
        pd.DataFrame(
            {
                "age": rng.integers(18, 90, n),
                "zip": rng.integers(1000, 1040, n),
                "job": rng.choice(["a", "b", "c", "d", "e"], n),
                "disease": rng.choice([f"d{i}" for i in range(7)], n),
            }
        ),
    )


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[list[Ident]]:
    seen: list[list[Ident]] = []
    render = groups_module.render

    def spy(name: str, *args: Any, **kw: Any) -> Any:
        if name == "metrics/rows.sql":
            seen.append(list(kw["keys"]))
        return render(name, *args, **kw)

    monkeypatch.setattr(groups_module, "render", spy)
    return seen


def _by_hand(db: Database, out: str, qi: list[str]) -> tuple[int, int]:
    """The classes (group column and labels) of the published table, and the sum of their squared sizes."""
    keys = ", ".join(f'"{c}"' for c in ["group_id", *qi])
    classes, squares = db.con.execute(
        f'SELECT count(*), sum(n * n) FROM (SELECT count(*) AS n FROM "{out}" GROUP BY {keys})'
    ).fetchall()[0]
    return int(classes), int(squares)


@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_local_recoding_classes_are_counted_by_group_id(
    db: Database, monkeypatch: pytest.MonkeyPatch, seed: int | None
) -> None:
    if seed is None:
        paper(db)
        table, qi, sa = "t", ["Gender", "Postcode", "Age"], "Disease"
    else:
        _random_table(db, seed, 300 * seed)
        table, qi, sa = "r", QI, "disease"
    seen = _spy(monkeypatch)
    r = ldiv_db.anonymize(db, table, qi, sa, algorithm="mondrian", l=2, output="m", replace=True)
    assert r.verified
    assert seen == [[Ident("gid")]]  # the classes by the group id alone
    classes, squares = _by_hand(db, "m", qi)
    assert r.groups == classes
    assert r.metrics["dm"] == squares + r.rows_deleted * (r.rows_published + r.rows_deleted)


def test_suppression_classes_are_still_counted_by_group_id_and_labels(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    _random_table(db, 5, 400)
    seen = _spy(monkeypatch)
    r = ldiv_db.anonymize(db, "r", QI, "disease", algorithm="tp", l=2, output="s", replace=True)
    assert r.verified
    assert seen == [[Ident("gid"), *(Ident(f"q{i}") for i in range(1, 4))]]
    assert r.groups == _by_hand(db, "s", QI)[0]


def test_cm_of_a_local_recoding_counts_each_group_ids_minority(db: Database) -> None:
    _random_table(db, 7, 600)
    db.con.execute("ALTER TABLE r ADD COLUMN klass VARCHAR")
    db.con.execute("UPDATE r SET klass = CASE WHEN (age + zip) % 3 = 0 THEN 'x' ELSE 'y' END")
    r = ldiv_db.anonymize(
        db, "r", QI, "disease", algorithm="mondrian", l=2, output="m", replace=True, class_column="klass"
    )
    assert r.verified
    keys = ", ".join(f'"{c}"' for c in ["group_id", *QI])
    minority = db.con.execute(
        f"SELECT sum(n - top) FROM (SELECT sum(c) AS n, max(c) AS top FROM (SELECT {keys}, klass, count(*) AS c "
        f'FROM "m" GROUP BY ALL) GROUP BY {keys})'
    ).fetchall()[0][0]
    assert r.metrics["cm"] == int(minority) + r.rows_deleted
