"""Template cases: sql/taxonomy/.

The read statements run against a hierarchy really stored for the hostile table's ``it's`` column. Its
id comes from a sequence, so ``_stored`` (called from the ``ctx`` hook, which the harness runs before it
renders) stores the hierarchy once and writes the id into the shared params dict. The write statements
(insert/delete) work on a pseudo table ``main.tmpl it's`` so they never touch the hierarchies that other
areas' cases store for ``main.select``.
"""

from __future__ import annotations

from typing import Any

from fixtures.hostile import HIERARCHIES, HOSTILE_SA
from ldiv_db.core.catalog import Column, Table
from ldiv_db.sqlgen.render import Ident, TableRef
from ldiv_db.taxonomy import Hierarchy, list_hierarchies, store

from .harness import Case, HostileEnv

_READ: dict[str, Any] = {"hierarchy_id": -1}
_LEVEL: dict[str, Any] = {"hierarchy_id": -1, "level": 1}
_PSEUDO = Table(TableRef("tmpl it's", "main"), "BASE TABLE", (Column("Zip Code", "VARCHAR", 1),))
_PSEUDO_KEY = {"table_name": "main.tmpl it's", "column_name": "Zip Code"}


def _stored(env: HostileEnv) -> dict[str, Any]:
    """Store the hostile ``it's`` hierarchy unless one is stored already; put its id into the params."""
    found = list_hierarchies(env.db, env.table.name, "it's")
    if found:
        hid = found[0].hierarchy_id
    else:
        h = Hierarchy(HIERARCHIES["it's"])
        hid = store(env.db, env.table, env.table.column("it's"), h, "imported", "fixture")
    _READ["hierarchy_id"] = _LEVEL["hierarchy_id"] = hid
    return {}


def _read_ctx(env: HostileEnv) -> dict[str, Any]:
    _stored(env)
    return {"source": env.source, "column": Ident("it's")}


_SA_KEY = {"table_name": "main.select", "column_name": HOSTILE_SA}


def _sa_ctx(env: HostileEnv) -> dict[str, Any]:
    return {"source": env.source, "column": env.sa}


def _store_pseudo(env: HostileEnv) -> None:
    store(env.db, _PSEUDO, _PSEUDO.columns[0], Hierarchy(HIERARCHIES["Zip Code"]), "imported", None)


def _store_pseudo_then_drop_children(env: HostileEnv) -> None:
    """delete_hierarchy runs last in store's sequence: levels and nodes are gone before it."""
    _store_pseudo(env)
    env.run("taxonomy/delete_levels.sql", _PSEUDO_KEY)
    env.run("taxonomy/delete_nodes.sql", _PSEUDO_KEY)


CASES = {
    "taxonomy/list.sql": Case(_stored, {"table_name": "main.select", "column_name": "it's"}),
    "taxonomy/nodes.sql": Case(_stored, _READ),
    "taxonomy/arrays.sql": Case(_stored, {"hids": [1, 2]}),
    "taxonomy/short_rows.sql": Case(_stored, _READ),
    "taxonomy/level_map.sql": Case(_stored, _LEVEL),
    "taxonomy/missing_values.sql": Case(_read_ctx, _READ),
    "taxonomy/distinct_values.sql": Case(lambda env: {"source": env.source, "column": Ident('a"b')}),
    "taxonomy/insert_hierarchy.sql": Case(
        lambda env: {},
        {
            "table_name": "main.tmpl it's",
            "column_name": "insert's test",
            "kind": "flat",
            "height": 2,
            "leaves": 1,
            "nodes": 2,
            "source": None,
        },
    ),
    "taxonomy/delete_levels.sql": Case(lambda env: {}, _PSEUDO_KEY, prepare=_store_pseudo),
    "taxonomy/delete_nodes.sql": Case(lambda env: {}, _PSEUDO_KEY, prepare=_store_pseudo),
    "taxonomy/delete_hierarchy.sql": Case(
        lambda env: {}, _PSEUDO_KEY, prepare=_store_pseudo_then_drop_children
    ),
    # sensitivity categories: read statements on the hostile SA, the delete on the pseudo key
    "taxonomy/categories_of.sql": Case(lambda env: {}, _SA_KEY),
    "taxonomy/categories_uncovered.sql": Case(_sa_ctx, _SA_KEY),
    "taxonomy/categories_unused.sql": Case(_sa_ctx, _SA_KEY),
    "taxonomy/categories_delete.sql": Case(lambda env: {}, _PSEUDO_KEY),
    "taxonomy/categories_for.sql": Case(lambda env: {}, _SA_KEY),
}
