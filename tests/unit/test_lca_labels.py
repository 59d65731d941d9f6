"""An algorithm's own LCA labels (:mod:`ldiv_db.algorithms.shared.lca`): the deepest covering ancestor
against a brute force over random taxonomies, the cases where the labels are left to the pipeline's
template, and BSGI's releases with the labels from its arrays against the same releases labelled by
``release/labels_lca.sql`` (every published cell, group ids and metrics equal)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.algorithms import bsgi
from ldiv_db.algorithms.shared import lca
from ldiv_db.algorithms.shared.trees import Tree
from ldiv_db.core.catalog import Column
from ldiv_db.db import Database
from ldiv_db.taxonomy import TaxonomyArrays

from .test_taxonomy_arrays import _random_tree

QI = ["age", "sex", "race", "marital_status", "education", "workclass", "native_country"]


def _ancestors(parent: list[int], x: int) -> list[int]:
    out = []
    while x >= 0:
        out.append(x)
        x = parent[x]
    return out


@pytest.mark.parametrize("seed", range(25))
def test_lowest_covering_is_the_lca_of_the_leaves_between(seed: int) -> None:
    rng = random.Random(seed)
    parent = _random_tree(rng, rng.randint(2, 80))
    tree = Tree(TaxonomyArrays.from_parent([f"n{i}" for i in range(len(parent))], parent))
    leaves = [i for i in range(len(parent)) if tree.arrays.last[i] == i]
    groups = [sorted(rng.sample(leaves, rng.randint(1, min(4, len(leaves))))) for _ in range(40)]
    lo = np.array([g[0] for g in groups], dtype=np.int64)
    hi = np.array([g[-1] for g in groups], dtype=np.int64)
    got = lca.lowest_covering(tree, lo, hi).tolist()
    for g, node in zip(groups, got, strict=True):
        common = set(_ancestors(parent, g[0]))
        for leaf in g[1:]:
            common &= set(_ancestors(parent, leaf))
        want = max(common, key=lambda a: int(tree.arrays.depth[a]))
        assert node == want, (g, node, want)


@pytest.mark.parametrize("seed", range(12))
def test_stable_order_is_numpys_stable_argsort(seed: int) -> None:
    """The radix passes give the one stable order (the groups' rows in the order they came): keys of
    one to three 16-bit digits with many ties, and the ranges left to numpy (negative, 2^48 and above)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 5_000))
    top = [2**8, 2**16, 2**16 + 1, 2**32 - 1, 2**40, 2**48 - 1, 2**48, 2**62][seed % 8]
    keys = rng.integers(0, top, n, dtype=np.int64)
    if n and seed % 3 == 0:  # few distinct keys: long runs of ties
        keys = rng.choice(keys[:7], n)
    if n and seed == 11:
        keys[0] = -1
    want = np.argsort(keys, kind="stable")
    assert lca.stable_order(keys).tolist() == want.tolist()


def _tree(labels: list[str], parent: list[int]) -> Tree:
    return Tree(TaxonomyArrays.from_parent(labels, parent))


def test_labels_are_left_to_the_template_where_the_arrays_would_differ() -> None:
    db = Database.open(":memory:")
    try:
        tree = _tree(["*", "a", "b"], [-1, 0, 0])
        gid = np.array([1, 1, 2], dtype=np.int64)
        ok = lca.lca_labels(db, [tree], lambda: [np.array([1, 2, 2], dtype=np.int64)], gid)
        assert ok is not None
        assert db.con.execute(f"SELECT gid, q1 FROM {ok.sql()} ORDER BY gid").fetchall() == [
            (1, "*"),
            (2, "b"),
        ]
        # a code that is not a leaf (the root), a label on two nodes, a QI without a labeller, no rows
        assert lca.lca_labels(db, [tree], lambda: [np.array([0, 1, 2], dtype=np.int64)], gid) is None
        twice = _tree(["*", "a", "a"], [-1, 0, 0])
        assert lca.lca_labels(db, [twice], lambda: [np.array([1, 2, 2], dtype=np.int64)], gid) is None
        assert lca.lca_labels(db, [tree, None], lambda: [np.array([1, 2, 2])] * 2, gid) is None
        assert lca.lca_labels(db, [tree], lambda: [np.array([], dtype=np.int64)], gid[:0]) is None
    finally:
        db.close()


def test_integer_columns_are_labelled_as_the_template_does() -> None:
    db = Database.open(":memory:")
    try:
        values = lca.Integers(np.array([-7, -3, 0, 12], dtype=np.int64))
        gid = np.array([3, 1, 3, 2, 2], dtype=np.int64)
        codes = np.array([0, 2, 1, 3, 3], dtype=np.int64)
        t = lca.lca_labels(db, [values], lambda: [codes], gid)
        assert t is not None
        got = db.con.execute(f"SELECT gid, q1 FROM {t.sql()} ORDER BY gid").fetchall()
        # the template's text: CAST(min AS VARCHAR) || '-' || CAST(max AS VARCHAR), or the single value
        want = db.con.execute(
            "SELECT g, CASE WHEN min(v) = max(v) THEN CAST(min(v) AS VARCHAR) "
            "ELSE CAST(min(v) AS VARCHAR) || '-' || CAST(max(v) AS VARCHAR) END "
            "FROM (VALUES (3, -7), (1, 0), (3, -3), (2, 12), (2, 12)) AS t(g, v) GROUP BY g ORDER BY g"
        ).fetchall()
        assert got == want == [(1, "0"), (2, "12"), (3, "-7--3")]
    finally:
        db.close()


def test_labeller_takes_taxonomies_and_integer_columns_only() -> None:
    tree = _tree(["*", "a"], [-1, 0])

    class Attr:
        def __init__(self, kind: str, integral: bool = True) -> None:
            self.kind, self.tree, self.integral = kind, tree, integral
            self.values = np.array([1, 2])

    assert lca.labeller(Attr("hierarchy"), Column("x", "VARCHAR", 1)) is tree
    assert isinstance(lca.labeller(Attr("numeric"), Column("x", "BIGINT", 1)), lca.Integers)
    assert lca.labeller(Attr("numeric"), Column("x", "DOUBLE", 1)) is None  # '30.0' in SQL, not '30'
    assert lca.labeller(Attr("numeric", integral=False), Column("x", "INTEGER", 1)) is None
    assert lca.labeller(Attr("flat"), Column("x", "VARCHAR", 1)) is None


@pytest.fixture(scope="module")
def census_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    d = tmp_path_factory.mktemp("lca")
    paths = census.write(d, n=1500)
    db = Database.open(d / "c.duckdb")
    db.con.register("df", census.generate(1500))
    db.con.execute("CREATE TABLE census AS SELECT * FROM df")
    db.con.execute("CREATE TABLE census_d AS SELECT * REPLACE (CAST(age AS DOUBLE) AS age) FROM df")
    db.con.unregister("df")
    for col in QI[1:]:
        taxonomy.import_hierarchy(db, "census", col, paths[col])
        taxonomy.import_hierarchy(db, "census_d", col, paths[col])
    yield db
    db.close()


def _release(db: Database, table: str, out: str, **options: Any) -> tuple[list[tuple[Any, ...]], Any]:
    r = ldiv_db.anonymize(db, table, QI, "occupation", algorithm="bsgi", output=out, replace=True, **options)
    assert r.verified
    return db.con.execute(f'SELECT * FROM "{out}" ORDER BY ALL').fetchall(), r.metrics


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """BSGI's calls of lca_labels, each one's result (None: the template labelled the classes)."""
    made: list[Any] = []

    def spy(*args: Any) -> Any:
        made.append(lca.lca_labels(*args))
        return made[-1]

    monkeypatch.setattr(bsgi, "lca_labels", spy)
    return made


@pytest.mark.parametrize(("l", "refine"), [(2, "none"), (3, "exchange"), (5, "none")])
def test_bsgi_release_is_the_same_with_its_own_labels(
    census_db: Database, monkeypatch: pytest.MonkeyPatch, l: int, refine: str
) -> None:
    made = _spy(monkeypatch)
    own = _release(census_db, "census", "own", l=l, refine=refine)
    assert made and made[-1] is not None  # the labels came from the arrays
    monkeypatch.setattr(bsgi, "lca_labels", lambda *args: None)
    template = _release(census_db, "census", "template", l=l, refine=refine)
    assert own == template
    assert any("-" in str(row[0]) for row in own[0])  # age ranges were published


def test_a_double_column_is_labelled_by_the_template(
    census_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _spy(monkeypatch)
    rows, _ = _release(census_db, "census_d", "dbl", l=3, refine="none")
    assert made == [None]
    assert any(".0" in str(row[0]) for row in rows)  # the engine's text form of a double
