"""Template cases: sql/topdown/ ((l,α) top-down specialization), run on the hostile fixture."""

from __future__ import annotations

from ldiv_db.evaluator import SqlEvaluator
from ldiv_db.privacy import Distinct
from ldiv_db.render import Ident, TableRef

from .harness import Case, HostileEnv

_DONE: dict[tuple[int, str], TableRef] = {}


def _active(env: HostileEnv) -> TableRef:
    key = (id(env), "active")
    if key not in _DONE:
        t = env.work("td active")
        env.run("topdown/active_table.sql", target=t)
        env.run("topdown/seed_active.sql", {"attr": 1, "level": 0}, target=t, source=env.source)
        _DONE[key] = t
    return _DONE[key]


def _candidates(env: HostileEnv) -> TableRef:
    key = (id(env), "candidates")
    if key not in _DONE:
        t = env.work("td candidates")
        env.run(
            "topdown/candidates.sql",
            {"hids": [1, 0, 2, 0]},
            target=t,
            active=_active(env),
            source=env.source,
            qi=env.qi,
            sa=env.sa,
        )
        _DONE[key] = t
    return _DONE[key]


_EV: dict[int, SqlEvaluator] = {}


def _evaluator(env: HostileEnv) -> SqlEvaluator:
    if id(env) not in _EV:
        keys = [Ident("node"), Ident("child")]
        _EV[id(env)] = SqlEvaluator(env.db, _candidates(env), keys, [Ident("a1")], prefix="td case").build()
    return _EV[id(env)]


def _verdict(env: HostileEnv) -> TableRef:
    key = (id(env), "verdict")
    if key not in _DONE:
        t = env.work("td verdict")
        Distinct((2,)).apply(_evaluator(env), t)
        _DONE[key] = t
    return _DONE[key]


def _final(env: HostileEnv) -> TableRef:
    key = (id(env), "final")
    if key not in _DONE:
        t = env.work("td final")
        env.run("topdown/final_table.sql", target=t)
        env.run("topdown/seed_final.sql", target=t, source=env.source)
        _DONE[key] = t
    return _DONE[key]


def _nodes(env: HostileEnv) -> TableRef:
    key = (id(env), "nodes")
    if key not in _DONE:
        t = env.work("td nodes")
        env.run("topdown/nodes_table.sql", target=t, qi=env.qi)
        _DONE[key] = t
    return _DONE[key]


def _route(env: HostileEnv) -> TableRef:
    key = (id(env), "route")
    if key not in _DONE:
        t = env.work("td route")
        env.run("topdown/route_table.sql", target=t)
        _DONE[key] = t
    return _DONE[key]


def _moved(env: HostileEnv) -> TableRef:
    key = (id(env), "moved")
    if key not in _DONE:
        t = env.work("td moved")
        env.run("topdown/moved_table.sql", target=t)
        _DONE[key] = t
    return _DONE[key]


def _where(env: HostileEnv) -> dict[str, TableRef]:
    return {"candidates": _candidates(env), "route": _route(env), "moved": _moved(env)}


def _labels(env: HostileEnv) -> TableRef:
    key = (id(env), "labels")
    if key not in _DONE:
        t = env.work("td labels")
        env.run(
            "topdown/labels.sql",
            {"hids": [1, 0, 2, 0]},
            target=t,
            final=_final(env),
            nodes=_nodes(env),
            source=env.source,
            qi=env.qi,
            sa=env.sa,
        )
        _DONE[key] = t
    return _DONE[key]


CASES = {
    "topdown/active_table.sql": Case(lambda env: {"target": env.work("td active 2")}),
    "topdown/seed_active.sql": Case(
        lambda env: {"target": _active(env), "source": env.source}, {"attr": 2, "level": 1}
    ),
    "topdown/candidates.sql": Case(
        lambda env: {
            "target": env.work("td candidates 2"),
            "active": _active(env),
            "source": env.source,
            "qi": env.qi,
            "sa": env.sa,
        },
        {"hids": [1, 0, 2, 0]},
    ),
    "topdown/children.sql": Case(
        lambda env: {
            "candidates": _candidates(env),
            "hist": _evaluator(env).hist,
            "verdict": _verdict(env),
            "exact_ids": False,
        }
    ),
    "topdown/route_table.sql": Case(lambda env: {"target": env.work("td route 2")}),
    "topdown/moved_table.sql": Case(lambda env: {"target": env.work("td moved 2")}),
    "topdown/finish.sql": Case(lambda env: {"final": _final(env), **_where(env)}),
    "topdown/advance.sql": Case(lambda env: {"target": env.work("td active 3"), **_where(env)}),
    "topdown/final_table.sql": Case(lambda env: {"target": env.work("td final 2")}),
    "topdown/nodes_table.sql": Case(lambda env: {"target": env.work("td nodes 2"), "qi": env.qi}),
    "topdown/seed_final.sql": Case(lambda env: {"target": _final(env), "source": env.source}),
    "topdown/labels.sql": Case(
        lambda env: {
            "target": env.work("td labels 2"),
            "final": _final(env),
            "nodes": _nodes(env),
            "source": env.source,
            "qi": env.qi,
            "sa": env.sa,
        },
        {"hids": [1, 0, 2, 0]},
    ),
    "topdown/assign.sql": Case(lambda env: {"target": env.work("td assignment"), "labels": _labels(env)}),
}
