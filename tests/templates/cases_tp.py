"""Template cases: sql/tp/ and sql/hilbert/ (TP, TP+, Hilbert), run on the hostile fixture."""

from __future__ import annotations

from typing import Any

import numpy as np

from ldiv_db.core.catalog import Column
from ldiv_db.sqlgen.render import TableRef

from .harness import Case, HostileEnv

_DONE: dict[tuple[int, str], TableRef] = {}


def _sa_ids(env: HostileEnv) -> TableRef:
    key = (id(env), "sa_ids")
    if key not in _DONE:
        t = env.work("tp sa ids")
        env.run("tp/sa_ids.sql", {"seed": 5}, target=t, source=env.source, sa=env.sa, keyed=True)
        _DONE[key] = t
    return _DONE[key]


def _rows(env: HostileEnv) -> TableRef:
    key = (id(env), "rows")
    if key not in _DONE:
        t = env.work("tp rows")
        env.run(
            "tp/rows.sql",
            {"seed": 5},
            target=t,
            sa_ids=_sa_ids(env),
            source=env.source,
            qi=env.qi,
            sa=env.sa,
            exact_ids=False,
            keyed=True,
        )
        _DONE[key] = t
    return _DONE[key]


def _cells(env: HostileEnv) -> TableRef:
    key = (id(env), "cells")
    if key not in _DONE:
        t = env.work("tp cells")
        env.run("tp/cells.sql", {"l": 2}, target=t, rows=_rows(env), keyed=True)
        _DONE[key] = t
    return _DONE[key]


def _staying(env: HostileEnv) -> TableRef:
    key = (id(env), "staying")
    if key not in _DONE:
        t = env.work("tp staying")
        env.run(
            "tp/assign.sql",
            {"gids": [], "sids": [], "moves": [], "r_gid": 7},
            target=t,
            cells=_cells(env),
            rows=_rows(env),
            staying_only=True,
        )
        _DONE[key] = t
    return _DONE[key]


def _published_target(env: HostileEnv) -> dict[str, Any]:
    target, ids = env.work("tp published"), env.work("tp published ids")
    env.run("hilbert/groups_table.sql", target=target)
    env.run(
        "catalog/create_columns.sql",
        target=ids,
        columns=[Column("gid", "BIGINT", 1), Column("pub", "BIGINT", 2)],
    )
    gids = list(range(1, 1001))  # every group of the fixture, each published under its id + 10,000
    env.db.insert_columns(
        ids, {"gid": np.array(gids, dtype=np.int64), "pub": np.array(gids, dtype=np.int64) + 10_000}
    )
    return {"target": target, "staying": _staying(env), "ids": ids}


_KINDS = ["hierarchy", "value", "hierarchy", "value"]
_TEXTS = [True, False, True, True]  # it's, Zip Code and select are character columns


def _domains(env: HostileEnv) -> TableRef:
    key = (id(env), "domains")
    if key not in _DONE:
        t = env.work("hilbert domains")
        env.run(
            "hilbert/domains.sql",
            {"hids": [1, 0, 2, 0]},
            target=t,
            source=env.source,
            qi=env.qi,
            kinds=_KINDS,
            texts=_TEXTS,
        )
        _DONE[key] = t
    return _DONE[key]


def _coords(env: HostileEnv) -> dict[str, Any]:
    """TP+'s form: the residue's rows from TP's row map and cells (every row's: Hilbert's, test_tp.py)."""
    return {
        "source": env.source,
        "domains": _domains(env),
        "rows": _rows(env),
        "cells": _cells(env),
        "qi": env.qi,
        "sa": env.sa,
    }


CASES = {
    "tp/sa_ids.sql": Case(
        lambda env: {"target": env.work("tp sa ids 2"), "source": env.source, "sa": env.sa, "keyed": True},
        {"seed": 5},
    ),
    "tp/rows.sql": Case(
        lambda env: {
            "target": env.work("tp rows 2"),
            "sa_ids": _sa_ids(env),
            "source": env.source,
            "qi": env.qi,
            "sa": env.sa,
            "exact_ids": True,
            "keyed": True,
        },
        {"seed": 5},
    ),
    "tp/cells.sql": Case(
        lambda env: {"target": env.work("tp cells 2"), "rows": _rows(env), "keyed": True}, {"l": 3}
    ),
    "tp/residue.sql": Case(lambda env: {"cells": _cells(env)}),
    "tp/kept.sql": Case(lambda env: {"cells": _cells(env)}),
    "tp/assign.sql": Case(
        lambda env: {
            "target": env.work("tp assignment 2"),
            "cells": _cells(env),
            "rows": _rows(env),
        },
        {"gids": [1], "sids": [1], "moves": [1], "r_gid": 7},
    ),
    "tp/staying_gids.sql": Case(lambda env: {"staying": _staying(env)}),
    # a group left out of ids would leave a NULL gid, which the target refuses
    "tp/publish_staying.sql": Case(_published_target),
    "hilbert/domains.sql": Case(
        lambda env: {
            "target": env.work("hilbert domains 2"),
            "source": env.source,
            "qi": env.qi,
            "kinds": _KINDS,
            "texts": _TEXTS,
        },
        {"hids": [1, 0, 2, 0]},
    ),
    "hilbert/coords.sql": Case(_coords, {"gids": [1], "sids": [1], "moves": [1]}),
    "hilbert/domain_sizes.sql": Case(lambda env: {"domains": _domains(env)}),
    "hilbert/groups_table.sql": Case(lambda env: {"target": env.work("hilbert groups")}),
    "hilbert/group_stars_table.sql": Case(lambda env: {"target": env.work("group stars"), "qi_count": 3}),
}
