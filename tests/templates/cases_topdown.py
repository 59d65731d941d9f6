"""Template cases: sql/topdown/ (top-down specialization), run on the hostile fixture."""

from __future__ import annotations

from ldiv_db.sqlgen.render import TableRef

from .harness import Case, HostileEnv

_DONE: dict[tuple[int, str], TableRef] = {}


def _final(env: HostileEnv) -> TableRef:
    key = (id(env), "final")
    if key not in _DONE:
        t = env.work("td final")
        env.run("topdown/final_table.sql", target=t)
        env.con.execute(f"INSERT INTO {t.sql()} SELECT rowid, 0 FROM {env.source.sql()}")
        _DONE[key] = t
    return _DONE[key]


def _nodes(env: HostileEnv) -> TableRef:
    key = (id(env), "nodes")
    if key not in _DONE:
        t = env.work("td nodes")
        env.run("topdown/nodes_table.sql", target=t, qi=env.qi)
        _DONE[key] = t
    return _DONE[key]


def _values(env: HostileEnv) -> TableRef:
    key = (id(env), "values")
    if key not in _DONE:
        t = env.work("td values")
        env.run("topdown/values.sql", target=t, source=env.source, columns=[*env.qi, env.sa])
        _DONE[key] = t
    return _DONE[key]


CASES = {
    "topdown/values.sql": Case(
        lambda env: {"target": env.work("td values 2"), "source": env.source, "columns": [*env.qi, env.sa]}
    ),
    "topdown/value_list.sql": Case(lambda env: {"values": _values(env)}),
    "topdown/rows.sql": Case(
        lambda env: {"source": env.source, "values": _values(env), "columns": [*env.qi, env.sa]}
    ),
    "topdown/root_label.sql": Case(lambda env: {}, {"hierarchy_id": 1}),
    "topdown/final_table.sql": Case(lambda env: {"target": env.work("td final 2")}),
    "topdown/nodes_table.sql": Case(lambda env: {"target": env.work("td nodes 2"), "qi": env.qi}),
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
    "topdown/assign.sql": Case(
        lambda env: {"target": env.work("td assignment"), "final": _final(env), "nodes": _nodes(env)}
    ),
}
