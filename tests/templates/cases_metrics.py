"""Template cases: sql/metrics/ (plus the test helper that stores a hierarchy straight into the ldiv tables).

The metrics templates chain: attributes -> domain -> labels -> cover -> attribute_summary, and read a
release table. ``_prepare_release`` builds a hostile-named release of the hostile fixture (groups 1..3,
labels from its hierarchies, an interval on the numeric QI, one deleted row, one suppressed SA) and the
chain's work tables, so every statement runs for real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pandas as pd

from fixtures.hostile import HIERARCHIES, HOSTILE_TABLE
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query, TableRef, quote

from .harness import Case, HostileEnv

_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def store_arx_rows(db: Database, table_name: str, column_name: str, rows: Sequence[Sequence[str]]) -> int:
    """Store an ARX-style hierarchy (one row per leaf, labels leaf -> root) into ldiv.hierarchy,
    ldiv.hierarchy_node and ldiv.hierarchy_level, replacing any stored for (table_name, column_name).

    A small independent stand-in for ``ldiv_db.taxonomy.store`` so the metrics tests do not depend on it.
    Repeated consecutive labels in a row (a chain) collapse into one node; children keep first-appearance
    order; node ids are preorder, ``last_leaf`` is the last id of the subtree, lo/hi are the numeric range
    of the leaves below when every leaf is a number.
    """
    parent: dict[str, str | None] = {}
    children: dict[str, list[str]] = {}
    for row in rows:
        path: list[str] = []
        for label in row:
            if not path or path[-1] != label:
                path.append(label)
        for child, up in zip(path, [*path[1:], None], strict=True):
            if child in parent and parent[child] != up:
                raise ValueError(f"label {child!r} has two parents: {parent[child]!r} and {up!r}")
            if child not in parent:
                parent[child] = up
                children.setdefault(child, [])
                if up is not None:
                    children.setdefault(up, []).append(child)
    roots = [v for v, p in parent.items() if p is None]
    assert len(roots) == 1, f"expected one root, got {roots}"
    order: list[str] = []
    depth: dict[str, int] = {}

    def visit(v: str, dep: int) -> None:
        depth[v] = dep
        order.append(v)
        for c in children[v]:
            visit(c, dep + 1)

    visit(roots[0], 0)
    ids = {v: i for i, v in enumerate(order)}
    leaves_of: dict[str, list[str]] = {}
    height: dict[str, int] = {}
    last: dict[str, int] = {}
    for v in reversed(order):
        kids = children[v]
        leaves_of[v] = [v] if not kids else [x for c in kids for x in leaves_of[c]]
        height[v] = 0 if not kids else 1 + max(height[c] for c in kids)
        last[v] = ids[v] if not kids else max(last[c] for c in kids)
    numeric = all(_NUMBER.match(x) for x in leaves_of[roots[0]])

    ids_of = Query(
        "test: stored hierarchies",
        "SELECT hierarchy_id FROM ldiv.hierarchy WHERE table_name = $t AND column_name = $c",
        {"t": table_name, "c": column_name},
    )
    for (old,) in db.rows(ids_of):
        for part in ("hierarchy_level", "hierarchy_node", "hierarchy"):
            db.run(
                Query(
                    "test: forget hierarchy", f"DELETE FROM ldiv.{part} WHERE hierarchy_id = $h", {"h": old}
                )
            )
    levels = max(len(r) for r in rows)
    hid = int(
        db.scalar(
            Query(
                "test: store hierarchy",
                "INSERT INTO ldiv.hierarchy (hierarchy_id, table_name, column_name, kind, height, leaves, nodes, "
                "source) VALUES (nextval('ldiv.hierarchy_seq'), $t, $c, 'imported', $height, $leaves, $nodes, "
                "'test') RETURNING hierarchy_id",
                {
                    "t": table_name,
                    "c": column_name,
                    "height": levels,
                    "leaves": len(leaves_of[roots[0]]),
                    "nodes": len(order),
                },
            )
        )
    )
    nodes = pd.DataFrame(
        {
            "hierarchy_id": [hid] * len(order),
            "node_id": [ids[v] for v in order],
            "label": order,
            "parent_id": pd.array([ids[p] if (p := parent[v]) is not None else None for v in order], "Int64"),
            "depth": [depth[v] for v in order],
            "height": [height[v] for v in order],
            "n_leaves": [len(leaves_of[v]) for v in order],
            "last_leaf": [last[v] for v in order],
            "lo": pd.array(
                [min(float(x) for x in leaves_of[v]) if numeric else None for v in order], "Float64"
            ),
            "hi": pd.array(
                [max(float(x) for x in leaves_of[v]) if numeric else None for v in order], "Float64"
            ),
        }
    )
    db.insert_frame(TableRef("hierarchy_node", "ldiv"), nodes)
    level_rows = [(r[0], k, r[min(k, len(r) - 1)]) for r in rows for k in range(levels)]
    db.insert_frame(
        TableRef("hierarchy_level", "ldiv"),
        pd.DataFrame(
            {
                "hierarchy_id": [hid] * len(level_rows),
                "leaf": [r[0] for r in level_rows],
                "level": [r[1] for r in level_rows],
                "label": [r[2] for r in level_rows],
            }
        ),
    )
    return hid


RELEASE = 'rel\'ease "x"'


def _release(env: HostileEnv) -> TableRef:
    """The release the metrics read (a hostile name, in the engine's catalog spelling)."""
    return env.named(RELEASE)


# Labels per group (1, 2, 3) for the QIs it's, a"b (numeric), Zip Code, select; SA ünï kept.
_GROUP_LABELS: dict[int, tuple[str, str, str, str]] = {
    1: ("x", "30-32", "1007*", "*"),
    2: ("y", "40-47", "1007*", "*"),
    3: ("z", "*", "1007*", "*"),
}


def _prepare_release(env: HostileEnv) -> None:
    db = env.db
    for column, rows in HIERARCHIES.items():
        store_arx_rows(db, env.table.name, column, rows)
    release = _release(env)
    db.run(
        Query(
            "test: release table",
            f"CREATE OR REPLACE TABLE {release.sql()} ("
            + ", ".join(f"{quote(c.name)} VARCHAR" for c in env.qi)
            + f", {quote(env.sa.name)} VARCHAR, {quote(env.group.name)} BIGINT, {quote(env.klass.name)} VARCHAR)",
        )
    )
    src = db.rows(
        Query(
            "test: source rows",
            f"SELECT {quote(env.sa.name)}, {quote(env.group.name)}, {quote(env.klass.name)} "
            f"FROM {env.source.sql()} ORDER BY rowid",
        )
    )
    out: list[list[Any]] = []
    for i, (sa, g, k) in enumerate(src):
        if i == 0:
            continue  # deleted by suppression
        out.append([*_GROUP_LABELS[g], None if i == 1 else sa, g, k])
    names = [*(c.name for c in env.qi), env.sa.name, env.group.name, env.klass.name]
    db.insert_frame(release, pd.DataFrame(out, columns=names))
    t = _tables(env)
    flags = {"numeric": _NUMERIC, "intervals": _NUMERIC, "integer": _NUMERIC}
    env.run("metrics/domain.sql", _attrs(env), target=t["domain"], source=env.source, qi=env.qi, **flags)
    env.run(
        "metrics/labels.sql",
        {**_attrs(env), "flat": False},
        target=t["labels"],
        domain=t["domain"],
        release=_release(env),
        rqi=env.qi,
        **flags,
    )
    env.run(
        "metrics/cover.sql", target=t["cover"], labels=t["labels"], domain=t["domain"], n_attrs=len(env.qi)
    )


_NUMERIC = [False, True, False, False]


def _tables(env: HostileEnv) -> dict[str, TableRef]:
    return {name: env.work(f"metrics {name}") for name in ("domain", "labels", "cover")}


def _attrs(env: HostileEnv) -> dict[str, Any]:
    """The params of the attributes' CTE (sql/_macros/metrics_attrs.sql)."""
    return {"table_name": env.table.name, "qi_names": [q.name for q in env.qi]}


# the statements that build the attributes' CTE: its params, named like the hostile table and columns
_ATTRS = {"table_name": f"main.{HOSTILE_TABLE}", "qi_names": ["it's", 'a"b', "Zip Code", "select"]}


def _ctx(**extra: Any) -> Any:
    def build(env: HostileEnv) -> dict[str, Any]:
        t = _tables(env)
        base: dict[str, Any] = {
            "source": env.source,
            "release": _release(env),
            "qi": env.qi,
            "rqi": env.qi,
            "sa": [env.sa],
            "rsa": [env.sa],
            "numeric": _NUMERIC,
            "intervals": _NUMERIC,
            "integer": _NUMERIC,
            **t,
        }
        return {**base, **{k: (v(env) if callable(v) else v) for k, v in extra.items()}}

    return build


def _target(name: str) -> Any:
    return lambda env: _tables(env)[name]


CASES = {
    "metrics/domain.sql": Case(_ctx(target=_target("domain")), _ATTRS, prepare=_prepare_release),
    "metrics/domain_table.sql": Case(_ctx(target=lambda env: env.work("metrics domain from"))),
    "metrics/labels.sql": Case(
        _ctx(target=_target("labels")), {**_ATTRS, "flat": False}, prepare=_prepare_release
    ),
    "metrics/cover.sql": Case(
        _ctx(target=_target("cover"), n_attrs=lambda env: len(env.qi)), prepare=_prepare_release
    ),
    "metrics/attribute_summary.sql": Case(_ctx(), _ATTRS, prepare=_prepare_release),
    "metrics/rows.sql": Case(
        _ctx(keys=lambda env: [env.group, *env.qi], pairs=True), prepare=_prepare_release
    ),
    "metrics/class_minority.sql": Case(
        _ctx(keys=lambda env: [env.group, *env.qi], klass=lambda env: env.klass), prepare=_prepare_release
    ),
    "metrics/kl_inputs.sql": Case(_ctx(), prepare=_prepare_release),
    "metrics/kl_cover.sql": Case(_ctx(), prepare=_prepare_release),
}

__all__ = ["CASES", "RELEASE", "store_arx_rows"]
