"""Template cases: the distribution models' verdicts (t-closeness, δ-disclosure, β-likeness), their
baseline and tree tables, the largest measure and the conjunction of verdicts — on the hostile fixture
through the evaluator of cases_partition (two SAs)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ldiv_db.sqlgen.render import TableRef

from .cases_partition import ev
from .harness import Case, HostileEnv


def _baseline(env: HostileEnv) -> TableRef:
    e = ev(env)
    target = e.work("baseline it's")
    env.run("privacy/baseline_table.sql", target=target)
    rows = [(s, v, n, r, n % 5) for s, pairs in e.value_counts().items() for r, (v, n) in enumerate(pairs, 1)]
    env.db.insert_frame(target, pd.DataFrame(rows, columns=["s", "v", "n", "r", "pt"]))
    return target


def _tree(env: HostileEnv) -> TableRef:
    e = ev(env)
    target = e.work("tree it's")
    env.run("privacy/tree_table.sql", target=target)
    rows = []
    for s, pairs in e.value_counts().items():
        for v, _ in pairs:
            rows += [(s, v, 0, v), (s, v, 1, (v or "")[:1]), (s, v, 2, "*")]
    env.db.insert_frame(target, pd.DataFrame(rows, columns=["s", "v", "h", "node"]))
    return target


def _ctx(env: HostileEnv) -> dict[str, Any]:
    e = ev(env)
    return {"target": e.work("dist verdict"), "hist": e.hist, "baseline": _baseline(env), "one_sa": False}


def _verdict_ready(env: HostileEnv) -> None:
    env.run("privacy/t_equal.sql", {"t_num": 1, "t_den": 5}, **_ctx(env), stats=ev(env).stats)


T = {"t_num": 1, "t_den": 5}

CASES = {
    "privacy/baseline_table.sql": Case(lambda env: {"target": ev(env).work("empty baseline")}),
    "privacy/tree_table.sql": Case(lambda env: {"target": ev(env).work("empty tree")}),
    "privacy/t_equal.sql": Case(lambda env: {**_ctx(env), "stats": ev(env).stats}, T),
    "privacy/t_ordered.sql": Case(lambda env: {**_ctx(env), "stats": ev(env).stats}, T),
    "privacy/t_hierarchical.sql": Case(
        lambda env: {**_ctx(env), "stats": ev(env).stats, "tree": _tree(env)}, T
    ),
    "privacy/delta_disclosure.sql": Case(lambda env: {**_ctx(env), "arx": False}, {"delta": 2.0}),
    "privacy/beta_likeness.sql": Case(lambda env: {**_ctx(env), "enhanced": True}, {"b_num": 3, "b_den": 2}),
    "privacy/largest.sql": Case(
        lambda env: {"verdict": ev(env).work("dist verdict")}, prepare=_verdict_ready, unordered_lists=True
    ),
    "privacy/all_of.sql": Case(
        lambda env: {"target": ev(env).work("all of"), "verdicts": [ev(env).work("dist verdict")] * 2},
        prepare=_verdict_ready,
    ),
    "meta/release_source.sql": Case(lambda env: {}, {"release_id": 1}),
}
