"""NULL as a value in (l,α) top-down (``null_as_value``, as in check and the other algorithms): a NULL QI
value is a value of its own, a leaf right below its hierarchy's root: it forms its own child there and is
published as the root label (the hierarchy has no node for it; a published QI-group that so joins several
nodes is their union, which keeps every (l,α) model); a NULL SA value is one more value and needs a
sensitivity category. The expected groups are traced by hand with SPEC §3.3's rules on the Table 8
hierarchy."""

from __future__ import annotations

import pandas as pd
import pytest

import ldiv_db
from fixtures.papers import paper_tables
from ldiv_db.algorithms.topdown.work import Work
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import identity_seeds

CATS = {
    "HIV": 1,
    "Cancer": 1,
    "Phthisis": 2,
    "Hepatitis": 2,
    "Obesity": 3,
    "Asthma": 3,
    "Flu": 4,
    "Indigestion": 4,
}


def make(db: Database, zips: list[str | None], diseases: list[str | None]) -> None:
    frame = pd.DataFrame(
        {"Zipcode": pd.Series(zips, dtype=object), "Disease": pd.Series(diseases, dtype=object)}
    )
    db.con.register("__frame", frame)
    db.con.execute('CREATE OR REPLACE TABLE t AS SELECT CAST(Zipcode AS VARCHAR) AS Zipcode, '
                   'CAST(Disease AS VARCHAR) AS Disease FROM __frame')  # fmt: skip
    db.con.unregister("__frame")
    import_hierarchy(db, "t", "Zipcode", paper_tables()["lalpha_table8"].hierarchies["Zipcode"])


def release(
    db: Database, cats: dict[str | None, int], **kw: object
) -> tuple[list[list[int]], dict[int, object]]:
    res = ldiv_db.anonymize(
        db, "t", "Zipcode", "Disease", algorithm="topdown", output="o", l=2, model="distinct-alpha",
        model_options={"alpha": 1, "categories": cats}, quiet=True, replace=True,
        seed=identity_seeds(db, "t")[0], **kw,  # type: ignore[arg-type]
    )  # fmt: skip  # the seed keeps SPEC's row id order for the ties
    assert res.verified
    rows = db.con.execute(
        "SELECT rr.source_rowid + 1, rr.group_id FROM ldiv.release_row rr WHERE rr.release_id = ? ORDER BY 1",
        [res.release_id],
    ).fetchall()
    by_group: dict[int, list[int]] = {}
    for rid, gid in rows:
        by_group.setdefault(gid, []).append(rid)
    labels = dict(
        db.con.execute(
            "SELECT rr.source_rowid + 1, o.Zipcode FROM ldiv.release_row rr JOIN (SELECT DISTINCT Zipcode, group_id "
            "FROM o) o ON o.group_id = rr.group_id WHERE rr.release_id = ?",
            [res.release_id],
        ).fetchall()
    )
    return sorted(by_group.values()), labels


def test_nulls_are_refused_without_the_option(db: Database) -> None:
    make(db, ["4351", None, "4352"], ["HIV", "Flu", "Flu"])
    with pytest.raises(BadInput, match=r"(?s)NULL.*--null-as-value"):
        release(db, CATS)


def test_a_null_qi_value_is_its_own_child_of_the_root(db: Database) -> None:
    # root **** -> children 4*** {1,2,5,6} and NULL {3,4}, both distinct (2,1); the NULL node specializes
    # down as one child to the leaf level (published as ****); 4*** -> 43** -> 435* -> 4351 {1,2}, 4352 {5,6}
    make(db, ["4351", "4351", None, None, "4352", "4352"], ["HIV", "Flu", "HIV", "Flu", "HIV", "Flu"])
    groups, labels = release(db, CATS, null_as_value=True)
    assert groups == [[1, 2], [3, 4], [5, 6]]
    assert labels == {1: "4351", 2: "4351", 3: "****", 4: "****", 5: "4352", 6: "4352"}


def test_a_failing_null_child_goes_back_to_the_root_and_is_published_as_the_root(db: Database) -> None:
    # root: 4*** {1,2,4,5} ok, NULL {3} fails -> P = {3: HIV}; repair takes from 4*** the row whose value is
    # new to P (Flu: rows 2, 4), largest row id -> 4; P = {3, 4} stays at ****. 4*** {1,2,5} -> ... -> 435*:
    # 4351 {1,2} ok, 4352 {5} fails; P = {5} cannot be repaired from {1,2} -> {1,2,5} at 435*
    make(db, ["4351", "4351", None, "4352", "4352"], ["HIV", "Flu", "HIV", "Flu", "HIV"])
    groups, labels = release(db, CATS, null_as_value=True)
    assert groups == [[1, 2, 5], [3, 4]]
    assert labels == {1: "435*", 2: "435*", 3: "****", 4: "****", 5: "435*"}


def test_a_null_sa_value_is_a_value_with_its_own_category(db: Database) -> None:
    # 4351 {HIV, NULL}: two distinct values, weight 0 + 1 (NULL in category 4) = 1 -> ok; 4352 {HIV, Flu} ok.
    # Were NULL no value, 4351 would hold one value and fail.
    make(db, ["4351", "4351", "4352", "4352"], ["HIV", None, "HIV", "Flu"])
    with pytest.raises(BadInput, match="no sensitivity category"):
        release(db, CATS, null_as_value=True)
    groups, labels = release(db, {**CATS, None: 4}, null_as_value=True)
    assert groups == [[1, 2], [3, 4]]
    assert labels == {1: "4351", 2: "4351", 3: "4352", 4: "4352"}
    # NULL in category 1 weighs 0: 4351 weighs 0 < α = 1, goes back with 4352 -> one group at 435*
    groups, labels = release(db, {**CATS, None: 1}, null_as_value=True)
    assert groups == [[1, 2, 3, 4]]
    assert set(labels.values()) == {"435*"}


def test_a_value_missing_from_the_hierarchy_is_named(db: Database) -> None:
    make(db, ["4351", "4351", "4352", "4352"], ["HIV", "Flu", "HIV", "Flu"])
    db.con.execute("UPDATE t SET Zipcode = '9999' WHERE Disease = 'Flu' AND Zipcode = '4352'")
    with pytest.raises(BadInput, match=r"lacks 1 value.*'9999'"):
        release(db, CATS)


@pytest.mark.parametrize("by_row", [False, True])
def test_labels_by_node_and_by_row_publish_the_same(
    db: Database, monkeypatch: pytest.MonkeyPatch, by_row: bool
) -> None:
    # the hand-traced case above, published with one label row per node (the default) and with the
    # per-row labels of topdown/labels.sql (the fallback where a node's rows would get two labels)
    if by_row:
        monkeypatch.setattr(Work, "_group_labels", lambda self, levels, nodes: None)
    make(db, ["4351", "4351", None, "4352", "4352"], ["HIV", "Flu", "HIV", "Flu", "HIV"])
    groups, labels = release(db, CATS, null_as_value=True)
    assert groups == [[1, 2, 5], [3, 4]]
    assert labels == {1: "435*", 2: "435*", 3: "****", 4: "****", 5: "435*"}
    steps = [r[0] for r in db.con.execute("SELECT template FROM ldiv.run_step").fetchall()]
    assert ("topdown/labels.sql" in steps) == by_row
