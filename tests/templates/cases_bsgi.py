"""Template cases: sql/bsgi/ and sql/mondrian/ — run on the hostile fixture with two SAs (``ünï``,
``order``) and an individual column (``group``), so every shape branch (hierarchy / numeric / flat QIs,
secondary SAs, individuals) renders and executes."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ldiv_db.sqlgen.render import Ident, TableRef

from .harness import Case, HostileEnv

KINDS = ["hierarchy", "numeric", "hierarchy", "flat"]  # it's, a"b, Zip Code, select
TEXTS = [True, False, True, True]  # the character columns among them
HIDS = {"hids": [0, 0, 0, 0]}
QCOLS = [Ident(f"q{i}") for i in range(1, 5)]
EXTRA = [Ident("s2")]
ORDS = [Ident(f"o{i}") for i in range(1, 5)]
SAS = [Ident("s1"), Ident("s2")]


def _codes(env: HostileEnv) -> TableRef:
    target = env.work("bsgi codes")
    env.run(
        "bsgi/codes.sql",
        HIDS,
        target=target,
        source=env.source,
        sa=[env.sa, env.klass],
        qi=env.qi,
        kinds=KINDS,
        texts=TEXTS,
        individual=env.group,
    )
    return target


def _codes_ctx(env: HostileEnv) -> dict[str, Any]:
    return {
        "target": env.work("bsgi codes"),
        "source": env.source,
        "sa": [env.sa, env.klass],
        "qi": env.qi,
        "kinds": KINDS,
        "texts": TEXTS,
        "individual": env.group,
    }


def _assignment(env: HostileEnv) -> TableRef:
    target = env.work("bsgi assignment")
    env.run("bsgi/assignment.sql", target=target)
    rows = [r[0] for r in env.con.execute(f"SELECT rowid FROM {env.source.sql()} ORDER BY rowid").fetchall()]
    frame = pd.DataFrame(
        {"rid": rows, "gid": [i // 3 for i in range(len(rows))], "deleted": False, "sa_suppressed": False}
    )
    env.db.insert_frame(target, frame)
    return target


def _part_bounds(env: HostileEnv) -> TableRef:
    """Two parts: each bucket's first two ranks in part 0, the rest in part 1."""
    target = env.work("bsgi part bounds")
    env.run("bsgi/part_bounds.sql", target=target)
    buckets = 8  # more than the fixture's SA values
    frame = pd.DataFrame(
        {
            "b": list(range(buckets)) * 2,
            "part": [0] * buckets + [1] * buckets,
            "lo": [0] * buckets + [2] * buckets,
            "hi": [2] * buckets + [10**6] * buckets,
        }
    )
    env.db.insert_frame(target, frame)
    return target


def _parts_ctx(env: HostileEnv) -> dict[str, Any]:
    return {
        "target": env.work("bsgi parts"),
        "codes": _codes(env),
        "bounds": _part_bounds(env),
        "order": [QCOLS[2], QCOLS[0], QCOLS[3], QCOLS[1]],
    }


def _parts(env: HostileEnv) -> TableRef:
    ctx = _parts_ctx(env)
    env.run("bsgi/parts.sql", **ctx)
    return ctx["target"]


def _summary_ctx(env: HostileEnv) -> dict[str, Any]:
    return {
        "assignment": _assignment(env),
        "codes": _codes(env),
        "extra": EXTRA,
        "individual": True,
    }


def _mondrian_rows(env: HostileEnv) -> TableRef:
    target = env.work("mondrian rows")
    env.run(
        "mondrian/rows.sql",
        HIDS,
        target=target,
        source=env.source,
        qi=env.qi,
        sa=[env.sa, env.klass],
        kinds=KINDS,
        texts=TEXTS,
    )
    return target


def _mondrian_classes(env: HostileEnv) -> TableRef:
    target = env.work("mondrian classes")
    env.run("mondrian/classes.sql", target=target, ords=ORDS)
    vectors = {f"o{i}": [float(v % (i + 1)) for v in range(12)] for i in range(1, 5)}
    env.db.insert_frame(target, pd.DataFrame({**vectors, "gid": [v // 4 for v in range(12)]}))
    return target


CASES = {
    "bsgi/codes.sql": Case(_codes_ctx, HIDS),
    "bsgi/domains.sql": Case(lambda env: {"codes": _codes(env), "qi": QCOLS, "kinds": KINDS}),
    "bsgi/cells.sql": Case(
        lambda env: {
            "codes": _parts(env),
            "qcols": QCOLS,
            "extra": EXTRA,
            "individual": True,
            "parted": True,
        },
        {"part": 1},
    ),
    "bsgi/part_bounds.sql": Case(lambda env: {"target": env.work("bsgi part bounds")}),
    "bsgi/parts.sql": Case(_parts_ctx),
    "bsgi/part_histogram.sql": Case(lambda env: {"codes": _codes(env), "prefix": [QCOLS[2], QCOLS[0]]}),
    "bsgi/assignment.sql": Case(lambda env: {"target": env.work("bsgi assignment")}),
    "bsgi/summary.sql": Case(_summary_ctx, {"l": 2}),
    "mondrian/rows.sql": Case(
        lambda env: {
            "target": env.work("mondrian rows"),
            "source": env.source,
            "qi": env.qi,
            "sa": [env.sa, env.klass],
            "kinds": KINDS,
            "texts": TEXTS,
        },
        HIDS,
    ),
    "mondrian/vectors.sql": Case(lambda env: {"rows": _mondrian_rows(env), "ords": ORDS, "sas": SAS}),
    "mondrian/classes.sql": Case(lambda env: {"target": env.work("mondrian classes"), "ords": ORDS}),
    "mondrian/assignment.sql": Case(
        lambda env: {
            "target": env.work("mondrian assignment"),
            "rows": _mondrian_rows(env),
            "classes": _mondrian_classes(env),
            "ords": ORDS,
        }
    ),
}
