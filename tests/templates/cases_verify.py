"""Template cases: the release aggregate and the verification of a written release (sql/release/aggregate,
verify_hist, verify_stats, verify_summary, same_partition). The hostile table stands in for a written release: it has
QI, SA, group and class columns with hostile names."""

from __future__ import annotations

from typing import Any

from ldiv_db.sqlgen.render import Ident, TableRef, render

from .harness import Case, HostileEnv


def _agg(env: HostileEnv) -> TableRef:
    return env.work("aggregate")


def _agg_ctx(env: HostileEnv) -> dict[str, Any]:
    return {
        "target": _agg(env),
        "output": env.source,
        "group_column": env.group,
        "qi": env.qi,
        "sa": [env.sa],
        "klass": env.klass,
    }


def build_aggregate(env: HostileEnv) -> None:
    env.db.run(render("release/aggregate.sql", **_agg_ctx(env)))


def _hist_ctx(env: HostileEnv, by_labels: bool, name: str) -> dict[str, Any]:
    return {
        "target": env.work(name),
        "aggregate": _agg(env),
        "qi": [Ident(f"q{i}") for i in range(1, len(env.qi) + 1)],
        "sa": [Ident("s1")],
        "by_labels": by_labels,
        "null_as_value": False,
    }


def _verdicts(env: HostileEnv) -> dict[str, Any]:
    build_aggregate(env)
    out: dict[str, Any] = {"stats": [], "verdicts": []}
    for part, by_labels in (("group", True), ("labels", False)):
        ctx = _hist_ctx(env, by_labels, f"hist {part}")
        env.db.run(render("release/verify_hist.sql", **ctx))
        stats, verdict = env.work(f"stats {part}"), env.work(f"verdict {part}")
        env.db.run(render("partition/group_stats.sql", target=stats, hist=ctx["target"]))
        env.db.run(render("privacy/distinct.sql", {"ls": [3]}, target=verdict, stats=stats))
        out["stats"].append(stats)
        out["verdicts"].append(verdict)
    return out


CASES = {
    "release/aggregate.sql": Case(_agg_ctx),
    # by labels with hashed ids, the path a release takes (by group id and exact ranks: verify_summary's)
    "release/verify_hist.sql": Case(
        lambda env: {**_hist_ctx(env, True, "hist"), "hash_ids": True}, prepare=build_aggregate
    ),
    # the statistics straight from the aggregate, by labels with hashed ids (their lists have no order)
    "release/verify_stats.sql": Case(
        lambda env: {**_hist_ctx(env, True, "stats"), "hash_ids": True},
        prepare=build_aggregate,
        unordered_lists=True,
    ),
    "release/verify_summary.sql": Case(_verdicts, {"worst": 2}),
    "release/same_partition.sql": Case(
        lambda env: {"aggregate": _agg(env), "qi": [Ident(f"q{i}") for i in range(1, len(env.qi) + 1)]},
        prepare=build_aggregate,
    ),
}
