"""Template cases: sql/decomposition/ — on the hostile fixture, with the stream columns QIs ``it's``,
``a"b``, ``Zip Code``, ``select``, kept column ``group`` and SAs ``ünï`` (primary) and ``order``
(slots c1..c7), and hostile names for the release tables."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ldiv_db.sqlgen.render import Ident, TableRef

from .harness import Case, HostileEnv

SA = [Ident("ünï"), Ident("order")]
S_SLOTS = [Ident("s1"), Ident("s2")]
SA_SLOTS = [Ident("c6"), Ident("c7")]
PUB = [Ident("it's"), Ident('a"b'), Ident("Zip Code"), Ident("select"), Ident("group")]
PUB_SLOTS = [Ident(f"c{i}") for i in range(1, 6)]
ALL_SLOTS = [Ident(f"c{i}") for i in range(1, 8)]
GROUP = Ident("group id")


def _qid(env: HostileEnv) -> TableRef:
    """The release's tables: hostile names (the engine's catalog spelling, harness.HostileEnv.named)."""
    return env.named("rel it's_qid")


def _sat(env: HostileEnv) -> TableRef:
    return env.named("rel it's_sa")


def _marg(env: HostileEnv) -> TableRef:
    return env.named("rel it's_marginals")


def _retained(env: HostileEnv) -> TableRef:
    return env.named("retained:main.rel it's", "ldiv")


def _columns(env: HostileEnv) -> list[Ident]:
    return [*env.qi, env.group, env.sa, env.klass]


def _pool(env: HostileEnv) -> TableRef:
    target = env.work("dec pool")
    env.run(
        "decomposition/pool.sql",
        {"offset": 0, "release": 1},
        target=target,
        source=env.source,
        columns=_columns(env),
        retained=None,
    )
    return target


def _assignment(env: HostileEnv) -> TableRef:
    target = env.work("dec assignment")
    env.run("decomposition/assignment.sql", target=target)
    env.db.insert_frame(target, pd.DataFrame({"rk": list(range(11)), "gid": [1 + i // 4 for i in range(11)]}))
    return target


def _sa_rows(env: HostileEnv) -> TableRef:
    target = env.work("dec sa rows")
    env.run("decomposition/sa_rows.sql", target=target, slots=S_SLOTS)
    pool = _pool(env)
    env.con.execute(
        f"INSERT INTO {target.sql()} SELECT rk // 4 + 1, CAST(c6 AS VARCHAR), CAST(c7 AS VARCHAR) "
        f"FROM {pool.sql()} WHERE rk < 11"
    )
    return target


def _noise(env: HostileEnv) -> TableRef:
    target = env.work("dec noise")
    env.run("decomposition/noise_rows.sql", target=target)
    env.db.insert_frame(
        target,
        pd.DataFrame({"gid": [1], "sa": ["order"], "replaced": ["no"], "noise": ["yes"], "distance": [1.0]}),
    )
    return target


def _pending(env: HostileEnv, filled: bool = False) -> TableRef:
    """A staged release's new stream rows (empty, or the fixture's rows)."""
    target = env.work("dec pending")
    env.run("decomposition/stream_rows_table.sql", target=target)
    if filled:
        params = {"name": "main.rel it's", "offset": 0, "source_name": "main.select", "release": 1}
        env.run("decomposition/stream_rows.sql", params, source=env.source, target=target)
    return target


def _written(env: HostileEnv) -> None:
    """The three release tables and the kept-back rows, as the writer leaves them."""
    pool, asg, sa_rows = _pool(env), _assignment(env), _sa_rows(env)
    con = env.con
    con.execute("CREATE SCHEMA IF NOT EXISTS ldiv")
    con.execute(
        f'CREATE OR REPLACE TABLE {_qid(env).sql()} AS SELECT c1 AS "it\'s", c2 AS "a""b", c3 AS "Zip Code", '
        f'c4 AS "select", c5 AS "group", a.gid AS "group id" FROM {pool.sql()} p JOIN {asg.sql()} a USING (rk)'
    )
    con.execute(
        f'CREATE OR REPLACE TABLE {_sat(env).sql()} AS SELECT gid AS "group id", s1 AS "ünï", s2 AS "order" FROM {sa_rows.sql()}'
    )
    con.execute(
        f'CREATE OR REPLACE TABLE {_marg(env).sql()} AS SELECT c6 AS "ünï", c7 AS "order" FROM {pool.sql()} p '
        f"JOIN {asg.sql()} a USING (rk)"
    )
    con.execute(
        f"CREATE OR REPLACE TABLE {_retained(env).sql()} AS SELECT rk, arrived, 0 AS starvation, c1, c2, c3, c4, c5, c6, c7 "
        f"FROM {pool.sql()} WHERE rk >= 11"
    )


def _drop(name: str, schema: str = "main") -> Any:
    def prepare(env: HostileEnv) -> None:
        env.con.execute(f"DROP TABLE IF EXISTS {env.named(name, schema).sql()}")

    return prepare


def _reconcile_ctx(env: HostileEnv) -> dict[str, Any]:
    _written(env)
    prev = env.work("dec prev marginals")
    env.run("decomposition/copy.sql", target=prev, source=_marg(env))
    prev_qid = env.work("dec prev qid")
    env.run("decomposition/copy.sql", target=prev_qid, source=_qid(env))
    return {
        "pool": _pool(env),
        "assignment": _assignment(env),
        "retained": _retained(env),
        "pending": None,  # transactional; the staged form (a pending table) runs in tests/spark
        "qid": _qid(env),
        "sa_table": _sat(env),
        "marginals": _marg(env),
        "previous_qid": prev_qid,
        "previous_marginals": prev,
        "noise": _noise(env),
        "group_column": GROUP,
        "sa": SA,
        "slots": SA_SLOTS,
    }


def _channel_ctx(env: HostileEnv) -> dict[str, Any]:
    _written(env)
    return {
        "assignment": _assignment(env),
        "previous_sa": _sat(env),
        "sa_rows": _sa_rows(env),
        "group_column": GROUP,
        "sa": SA,
    }


def _write_ctx(env: HostileEnv, with_previous: bool) -> dict[str, Any]:
    prev = None
    if with_previous:
        _written(env)
        prev = env.work("dec prev")
        env.run("decomposition/copy.sql", target=prev, source=_marg(env))
    return {"previous": prev}


CASES = {
    "decomposition/pool.sql": Case(
        lambda env: {
            "target": env.work("dec pool 2"),
            "source": env.source,
            "columns": _columns(env),
            "retained": (_written(env), _retained(env))[1],
        },
        {"offset": 100, "release": 2},
    ),
    # the text form here (every engine); the codes form is compared with it in test_decomposition.py
    "decomposition/pool_rows.sql": Case(
        lambda env: {"pool": _pool(env), "slots": SA_SLOTS, "codes": None}, {"seed": 7}
    ),
    "decomposition/pool_values.sql": Case(
        lambda env: {"target": env.work("dec pool values"), "pool": _pool(env), "slots": SA_SLOTS},
        engines=("duckdb",),
    ),
    "decomposition/assignment.sql": Case(lambda env: {"target": env.work("dec assignment 2")}),
    "decomposition/sa_rows.sql": Case(lambda env: {"target": env.work("dec sa rows 2"), "slots": S_SLOTS}),
    "decomposition/noise_rows.sql": Case(lambda env: {"target": env.work("dec noise 2")}),
    "decomposition/copy.sql": Case(lambda env: {"target": env.work("dec copy"), "source": env.source}),
    "decomposition/write_qid.sql": Case(
        lambda env: {
            "output": env.named("out it's_qid", "main"),
            "previous": None,
            "pool": _pool(env),
            "assignment": _assignment(env),
            "columns": PUB,
            "slots": PUB_SLOTS,
            "group_column": GROUP,
        },
        prepare=_drop("out it's_qid", "main"),
    ),
    "decomposition/write_sa.sql": Case(
        lambda env: {
            "output": env.named("out it's_sa", "main"),
            "previous": (_written(env), _sat(env))[1],
            "sa_rows": _sa_rows(env),
            "sa": SA,
            "group_column": GROUP,
        },
        prepare=_drop("out it's_sa", "main"),
    ),
    "decomposition/write_marginals.sql": Case(
        lambda env: {
            "output": env.named("out it's_marginals", "main"),
            **_write_ctx(env, True),
            "pool": _pool(env),
            "assignment": _assignment(env),
            "sa": SA,
            "slots": SA_SLOTS,
            "all_placed": False,
        },
        prepare=_drop("out it's_marginals", "main"),
    ),
    "decomposition/write_retained.sql": Case(
        lambda env: {
            "target": env.named("retained:main.out it's", "ldiv"),
            "pool": _pool(env),
            "assignment": _assignment(env),
            "slots": ALL_SLOTS,
            "all_placed": False,
        },
        {"release": 1},
        prepare=_drop("retained:main.out it's", "ldiv"),
    ),
    "decomposition/stream_rows.sql": Case(
        lambda env: {"source": env.source, "target": _pending(env)},  # staged; else ldiv.stream_row
        {"name": "main.rel it's", "offset": 0, "source_name": "main.select", "release": 1},
    ),
    "decomposition/stream_rows_table.sql": Case(lambda env: {"target": env.work("dec pending 2")}),
    "decomposition/stream_rows_enter.sql": Case(lambda env: {"source": _pending(env, filled=True)}),
    "decomposition/noise_forget.sql": Case(lambda env: {}, {"release_id": 1}),
    "decomposition/release_rows.sql": Case(
        lambda env: {"assignment": _assignment(env)}, {"release_id": 1, "previous_id": None}
    ),
    "decomposition/noise_log.sql": Case(lambda env: {"noise": _noise(env)}, {"release_id": 1}),
    "decomposition/stream_save.sql": Case(
        lambda env: {},
        {
            "name": "main.rel it's",
            "source": "main.select",
            "config": "{}",
            "releases": 1,
            "first_release": 1,
            "next_key": 12,
            "retained": 'ldiv."retained:main.rel it\'s"',
        },
    ),
    "decomposition/stream_get.sql": Case(lambda env: {}, {"name": "main.rel it's"}),
    "decomposition/stream_forget.sql": Case(lambda env: {}, {"name": "main.rel it's"}),
    "decomposition/reconcile.sql": Case(
        _reconcile_ctx,
        {"name": "main.rel it's", "release": 1, "first_release": None, "sa_names": ["ünï", "order"]},
    ),
    "decomposition/diverse.sql": Case(
        lambda env: {"target": (_written(env), _sat(env))[1], "group_column": GROUP, "sa": SA}, {"ls": [3, 2]}
    ),
    "decomposition/channel.sql": Case(
        _channel_ctx, {"name": "main.rel it's", "first_release": 1, "previous_id": 1}
    ),
    "decomposition/history.sql": Case(lambda env: {}, {"name": "main.rel it's", "first_release": 1}),
    "decomposition/waiting.sql": Case(lambda env: {"retained": (_written(env), _retained(env))[1]}),
    "decomposition/previous_sa.sql": Case(
        lambda env: {"source": (_written(env), _sat(env))[1], "group_column": GROUP, "sa": SA}
    ),
    "decomposition/previous_marginals.sql": Case(
        lambda env: {"source": (_written(env), _marg(env))[1], "sa": SA}
    ),
}


def _keys_table(env: HostileEnv) -> TableRef:
    target = env.named("keys:main.rel it's", "ldiv")
    env.con.execute("CREATE SCHEMA IF NOT EXISTS ldiv")
    env.con.execute(f"DROP TABLE IF EXISTS {target.sql()}")
    env.run(
        "decomposition/keys_write.sql", {"offset": 0}, target=target, source=env.source, key=KEY, create=True
    )
    return target


KEY = [Ident("it's"), Ident("ünï")]
CASES.update(
    {
        "decomposition/keys_check.sql": Case(
            lambda env: {"source": env.source, "key": KEY, "explicit": True, "keys": _keys_table(env)}
        ),
        "decomposition/keys_write.sql": Case(
            lambda env: {"target": _keys_table(env), "source": env.source, "key": KEY, "create": False},
            {"offset": 12},
        ),
        "decomposition/keys_count.sql": Case(lambda env: {"target": _keys_table(env), "explicit": True}),
    }
)
