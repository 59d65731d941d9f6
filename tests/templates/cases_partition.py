"""Template cases: sql/partition/, sql/privacy/, sql/bounds/ — run on the hostile fixture through the
evaluator's own work tables."""

from __future__ import annotations

from typing import Any

from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.sqlgen.render import TableRef

from .harness import Case, HostileEnv

_EVAL: dict[int, SqlEvaluator] = {}


def ev(env: HostileEnv) -> SqlEvaluator:
    key = id(env)
    if key not in _EVAL:
        _EVAL[key] = SqlEvaluator(
            env.db, env.source, env.qi[:2], [env.sa, env.klass], prefix="tpl it's"
        ).build()
    return _EVAL[key]


def _source_stats(env: HostileEnv) -> TableRef:
    """The statistics with their lists of counts, as an evaluator of a check builds them where the engine
    prefers it (partition/source_stats.sql)."""
    target = env.work("stats from source")
    env.run(
        "partition/source_stats.sql",
        {"parts": 1, "part": 0},
        target=target,
        source=env.source,
        keys=env.qi[:2],
        sa=[env.sa, env.klass],
        null_as_value=False,
        partitioned=False,
    )
    return target


def _source_rows(env: HostileEnv) -> dict[str, Any]:
    """The context of the histogram's rows read from the source (one part of one: the same rows on every
    engine)."""
    return {
        "source": env.source,
        "keys": env.qi[:2],
        "sa": [env.sa, env.klass],
        "null_as_value": False,
        "partitioned": True,
    }


def _hist_stats(env: HostileEnv) -> dict[str, Any]:
    e = ev(env)
    return {"hist": e.hist, "stats": e.stats}


def _verdict(env: HostileEnv) -> dict[str, Any]:
    return {"target": ev(env).work("verdict"), "stats": ev(env).stats}


def _values(env: HostileEnv) -> dict[str, Any]:
    e = ev(env)
    t = e.work("values")
    env.run("privacy/value_table.sql", target=t)
    return {"target": e.work("verdict"), "hist": e.hist, "stats": e.stats, "thresholds": t, "categories": t}


def _minrm(env: HostileEnv) -> dict[str, Any]:
    d = _values(env)
    return {"hist": d["hist"], "stats": d["stats"], "thresholds": d["thresholds"]}


LS = {"ls": [2, 2]}

CASES = {
    "partition/histogram.sql": Case(
        lambda env: {
            "target": env.work("hist"),
            "source": env.source,
            "keys": env.qi,
            "sa": [env.sa, env.klass],
            "null_as_value": True,
            "exact_ids": True,
            "partitioned": True,
        },
        # one part of one: the same rows on every engine (which groups fall in a part of several depends
        # on the engine's hash; tests/integration/test_check_split.py covers several parts)
        {"parts": 1, "part": 0},
    ),
    "partition/gid_check.sql": Case(lambda env: {"stats": ev(env).stats}),
    "partition/group_counts.sql": Case(
        lambda env: {"target": env.work("counts"), "hist": ev(env).hist, "stats": ev(env).stats},
        {"min_values": 2},
    ),
    "partition/group_stats.sql": Case(lambda env: {"target": env.work("stats"), "hist": ev(env).hist}),
    "partition/source_stats.sql": Case(
        lambda env: {
            "target": env.work("source stats"),
            "source": env.source,
            "keys": env.qi[:2],
            "sa": [env.sa, env.klass],
            "null_as_value": True,
            "partitioned": True,
        },
        {"parts": 1, "part": 0},  # as for the histogram: one part of one, the same rows on every engine
        unordered_lists=True,
    ),
    "partition/stats_counts.sql": Case(
        lambda env: {"target": env.work("stats counts"), "stats": _source_stats(env)}, {"min_values": 2}
    ),
    "partition/recursive_profile.sql": Case(
        lambda env: {"counts": ev(env).counts_table(2)}, {"max_l": 2, "max_ls": [2, 2]}
    ),
    "partition/pillars.sql": Case(_hist_stats),
    "partition/confidence.sql": Case(_hist_stats),
    "partition/value_counts.sql": Case(lambda env: {"hist": ev(env).hist}),
    "partition/group_keys.sql": Case(
        lambda env: {"source": env.source, "keys": env.qi[:2], "exact_ids": False}, {"gids": [1, 2]}
    ),
    "privacy/value_table.sql": Case(lambda env: {"target": env.work("values")}),
    "privacy/k_anonymity.sql": Case(_verdict, {"k": 2}),
    "privacy/distinct.sql": Case(_verdict, LS),
    "privacy/entropy.sql": Case(_verdict, LS),
    "privacy/recursive.sql": Case(
        lambda env: {**_verdict(env), "counts": ev(env).counts_table(2)},
        {**LS, "c_num": 3, "c_den": 1, "min_values": 2},
    ),
    "privacy/frequency.sql": Case(_verdict, LS),
    "privacy/unique_distinct.sql": Case(_verdict, LS),
    "privacy/lplus.sql": Case(_values, {"p_default": 1, "q_default": 2}),
    "privacy/l_alpha.sql": Case(
        lambda env: {**_values(env), "variant": "recursive", "over": "categories"},
        {**LS, "a_num": 1, "a_den": 1, "w_den": 3, "c_num": 2, "c_den": 1},
    ),
    # as a check reads a verdict inline (SqlEvaluator.judge): the recursive model's rows as the CTE
    # "verdict", its own WITH nested in it (a stored verdict table is read by the same branches)
    "partition/shapes.sql": Case(
        lambda env: {
            "stats": ev(env).stats,
            "verdict": TableRef("verdict"),
            "verdict_template": "privacy/recursive.sql",
            "target": None,
            "counts": ev(env).counts_table(2),
            "sorted_counts": True,
            "one_sa": False,
        },
        {"worst": 3, **LS, "c_num": 3, "c_den": 1, "min_values": 2},
    ),
    # as a check on a small DuckDB source reads them: the statistics computed inside the statement (the
    # CTE "stats"), the recursive verdict read inline over them. Statements of an engine with
    # Database.inline_statistics (DuckDB); PostgreSQL's rows are compared too, Spark never runs them
    "partition/source_shapes.sql": Case(
        lambda env: {
            **_source_rows(env),
            "stats": TableRef("stats"),
            "verdict": TableRef("verdict"),
            "verdict_template": "privacy/recursive.sql",
            "target": None,
            "counts": TableRef("stats"),
            "sorted_counts": False,
            "one_sa": False,
        },
        {"worst": 3, **LS, "c_num": 3, "c_den": 1, "min_values": 2, "parts": 1, "part": 0},
        engines=("duckdb", "postgres"),
    ),
    "partition/source_profile.sql": Case(
        lambda env: {**_source_rows(env), "counts": TableRef("counts")},
        {"max_l": 2, "max_ls": [2, 2], "parts": 1, "part": 0},
        unordered_lists=True,
        engines=("duckdb", "postgres"),
    ),
    "bounds/min_rm.sql": Case(_minrm, {"p_default": 1, "q_default": 3}),
}
