"""Template cases: sql/attack/ (the similarity attack), run on the hostile fixture."""

from __future__ import annotations

from ldiv_db.sqlgen.render import TableRef

from .harness import Case, HostileEnv

_DONE: dict[tuple[int, str], TableRef] = {}


def _categories(env: HostileEnv) -> TableRef:
    key = (id(env), "categories")
    if key not in _DONE:
        t = env.work("attack categories")
        env.run("privacy/value_table.sql", target=t)
        _DONE[key] = t
    return _DONE[key]


CASES = {
    "attack/uncategorized.sql": Case(
        lambda env: {"source": env.source, "sa": env.sa, "categories": _categories(env)}
    ),
    "attack/similarity.sql": Case(
        lambda env: {
            "source": env.source,
            "sa": env.sa,
            "categories": _categories(env),
            "keys": env.qi,
            "texts": [True, False, True, True],  # it's, a"b (integer), Zip Code, select
        }
    ),
}
