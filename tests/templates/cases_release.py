"""Template cases: sql/release/, sql/meta/, sql/full_domain/ and the remaining sql/catalog/ statements."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ldiv_db.sqlgen.render import Ident, Query, TableRef
from ldiv_db.sqlgen.table_function import TableFunction

from .harness import Case, HostileEnv, make_env

KINDS = ["hierarchy", "numeric", "flat", "flat"]
PAPER_CSV = Path(__file__).resolve().parents[2] / "fixtures" / "papers" / "bsgi_table1.csv"
PARQUET = Path(tempfile.gettempdir()) / "ldiv_template_case.parquet"


LOADED = "loaded it's"


def _drop_loaded(env: HostileEnv) -> None:
    env.con.execute(f"DROP TABLE IF EXISTS {env.named(LOADED).sql()}")


def _parquet(env: HostileEnv) -> None:
    """The file is the hostile fixture written by an embedded database (whatever engine the case runs on)."""
    _drop_loaded(env)
    writer = make_env()
    try:
        writer.db.con.execute(
            'COPY (SELECT * FROM main."select") TO $p (FORMAT parquet)', {"p": str(PARQUET)}
        )
    finally:
        writer.db.close()


def _assignment(env: HostileEnv) -> TableRef:
    t = env.work("assignment")
    env.con.execute(
        f'CREATE OR REPLACE TEMP TABLE {t.sql()} AS SELECT rowid AS rid, CAST("group" AS BIGINT) AS gid, '
        'rowid = 0 AS deleted, false AS sa_suppressed FROM main."select"'
    )
    return t


def _labels(env: HostileEnv) -> TableRef:
    t = env.work("labels")
    cols = ", ".join(f'CAST("{i}" AS VARCHAR) AS q{i}' for i in range(1, 5))
    env.con.execute(
        f"CREATE OR REPLACE TEMP TABLE {t.sql()} AS SELECT gid, {cols} FROM "
        f'(SELECT DISTINCT gid FROM {_assignment(env).sql()}), (SELECT 1 AS "1", 2 AS "2", 3 AS "3", 4 AS "4")'
    )
    return t


def _row_labels(env: HostileEnv) -> TableRef:
    t = env.work("row labels")
    env.con.execute(
        f'CREATE OR REPLACE TEMP TABLE {t.sql()} AS SELECT rowid AS rid, CAST("group" AS VARCHAR) AS q1, '
        "'a' AS q2, 'b' AS q3, 'c' AS q4 FROM main.\"select\""
    )
    return t


def _out(env: HostileEnv) -> TableRef:
    return env.named("out it's")


def _write_ctx(env: HostileEnv) -> dict[str, Any]:
    return {
        "output": _out(env),
        "assignment": _assignment(env),
        "source": env.source,
        "labels": _labels(env),
        "labels_by": "gid",
        "qi": env.qi,
        "sa": [env.sa],
        "keep": [env.klass],
        "group_column": Ident("group id"),
    }


def _write_suppress_ctx(env: HostileEnv) -> dict[str, Any]:
    ctx = {k: v for k, v in _write_ctx(env).items() if k not in ("labels", "labels_by")}
    return {**ctx, "as_text": [i % 2 == 0 for i in range(len(env.qi))]}  # compared both ways


def _drop_out(env: HostileEnv) -> None:
    env.con.execute(f"DROP TABLE IF EXISTS {_out(env).sql()}")


def _write_out(env: HostileEnv) -> None:
    from ldiv_db.sqlgen.render import render

    _drop_out(env)
    env.db.run(render("release/write.sql", **_write_ctx(env)))


def _out_aggregate(env: HostileEnv) -> TableRef:
    return env.work("out aggregate")


def _write_aggregate(env: HostileEnv) -> None:
    from ldiv_db.sqlgen.render import render

    _write_out(env)
    ctx = {
        "output": _out(env),
        "group_column": Ident("group id"),
        "qi": env.qi,
        "sa": [env.sa],
        "klass": None,
    }
    env.db.run(render("release/aggregate.sql", target=_out_aggregate(env), **ctx))


RELEASE_PARAMS = {
    "run_id": 1,
    "name": "main.out",
    "source": "main.select",
    "algorithm": "test",
    "model": "distinct",
    "l": "[2]",
    "qi": "[]",
    "sa": "[]",
    "rows_in": 12,
    "rows_published": 11,
    "rows_suppressed": 1,
    "groups": 3,
    "metrics": "{}",
    "details": "{}",
    "verified": True,
    "verification": "{}",
}


def _forget_migrations_91_92(env: HostileEnv) -> None:
    # migrations this ldiv_db does not ship: left in a shared database, every later open refuses it
    env.run_query(Query("forget", "DELETE FROM ldiv.schema_migration WHERE version IN (91, 92)"))


CASES = {
    "release/group_labels.sql": Case(lambda env: {"target": env.work("group labels"), "qi": env.qi}),
    "release/labels_lca.sql": Case(
        lambda env: {
            "target": env.work("lca"),
            "assignment": _assignment(env),
            "source": env.source,
            "qi": env.qi,
            "kinds": KINDS,
        },
        {"hids": [0, 0, 0, 0]},
    ),
    "release/labels_levels.sql": Case(
        lambda env: {
            "target": env.work("lev"),
            "source": env.source,
            "qi": env.qi,
            "sa": [env.sa],
            "kinds": KINDS,
        },
        {"hids": [0, 0, 0, 0], "levels": [1, 0, 0, 0]},
    ),
    "release/write.sql": Case(_write_ctx, prepare=_drop_out),
    "release/write_suppress.sql": Case(_write_suppress_ctx, prepare=_drop_out),
    "release/release_rows.sql": Case(lambda env: {"assignment": _assignment(env)}, {"release_id": 99}),
    "release/reconcile.sql": Case(
        lambda env: {
            "source": env.source,
            "assignment": _assignment(env),
            "aggregate": _out_aggregate(env),
            "sa": [env.sa],
        },
        prepare=_write_aggregate,
    ),
    "full_domain/assign.sql": Case(
        lambda env: {
            "target": env.work("fd"),
            "labels": _row_labels(env),
            "verdict": env.work("verdict"),
            "qi": [Ident(f"q{i}") for i in range(1, 5)],
            "exact_ids": False,
        },
        prepare=lambda env: env.con.execute(
            f"CREATE OR REPLACE TEMP TABLE {env.work('verdict').sql()} AS "
            "SELECT 1::BIGINT AS gid, 2::BIGINT AS size, true AS ok, 0.0 AS severity"
        ),
    ),
    "full_domain/deleted_count.sql": Case(lambda env: {"assignment": _assignment(env)}),
    "meta/run_start.sql": Case(
        lambda env: {},
        {"command": "anonymize", "algorithm": "x", "source": "s", "output": "o", "params": '{"a": 1}'},
    ),
    "meta/migrations_record.sql": Case(
        lambda env: {"count": 2},
        {"versions": [91, 92], "names": ["x's", 'y"z'], "checksums": ["c1", "c2"]},
        undo=_forget_migrations_91_92,
    ),
    "meta/run_finish.sql": Case(
        lambda env: {},
        {"run_id": 1, "status": "done", "seconds": 1.0, "queries": 3, "metrics": "{}", "error": None},
    ),
    "meta/running_runs.sql": Case(lambda env: {}),
    "meta/run_interrupt.sql": Case(
        lambda env: {},
        {
            "runs": [1, 2],
            "status": "interrupted",
            "note": "stopped",
            "published_note": "p",
            "stale": True,
            "seconds": None,
            "queries": None,
        },
    ),
    "meta/release_insert.sql": Case(lambda env: {}, RELEASE_PARAMS),
    "meta/next_release_id.sql": Case(lambda env: {}),
    "release/forget_rows.sql": Case(lambda env: {}, {"release_id": 99}),
    "meta/run_recorded.sql": Case(lambda env: {}, {"run_id": 1}),
    "meta/release_details.sql": Case(lambda env: {}, {"release_id": 1}),
    "release/class_sizes.sql": Case(lambda env: {"source": env.source, "keys": [env.group, *env.qi]}),
    "meta/release_supersede.sql": Case(lambda env: {}, {"name": "main.out", "release_id": 2}),
    "meta/releases.sql": Case(lambda env: {}),
    "catalog/hierarchies_of.sql": Case(lambda env: {}, {"table_name": "main.select"}),
    "catalog/sa_counts.sql": Case(lambda env: {"source": env.source, "sa": env.sa}),
    "catalog/load_csv.sql": Case(
        lambda env: {"target": env.named(LOADED)},
        {"path": str(PAPER_CSV), "sep": ";"},
        prepare=_drop_loaded,
        load_file=True,
    ),
    "catalog/load_function.sql": Case(
        lambda env: {
            "target": env.named(LOADED),
            "source": TableFunction.parse(
                "read_csv('fixtures/papers/bsgi_table1.csv', delim = ';', header = true)"
            ),
        },
        prepare=_drop_loaded,
        load_file=True,
    ),
    "catalog/load_parquet.sql": Case(
        lambda env: {"target": env.named(LOADED)},
        {"path": str(PARQUET)},
        prepare=_parquet,
        load_file=True,
    ),
}


def _guarantee_ctx(env: HostileEnv) -> dict[str, Any]:
    from ldiv_db.sqlgen.render import render

    _write_out(env)
    env.db.run(render("release/release_rows.sql", {"release_id": 1}, assignment=_assignment(env)))
    return {"source": env.source, "output": _out(env), "group_column": Ident("group id"), "column": env.klass}


CASES.update(
    {
        "release/guarantee_one_per_group.sql": Case(_guarantee_ctx, {"release_id": 1}),
        "release/published_count.sql": Case(lambda env: {"assignment": _assignment(env)}),
        "meta/release_verification.sql": Case(
            lambda env: {}, {"release_id": 1, "verified": True, "verification": "{}"}
        ),
    }
)
