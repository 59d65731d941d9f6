"""Template cases: sql/lplus/ (l+-Optimize), run on the hostile fixture."""

from __future__ import annotations

from ldiv_db.sqlgen.render import TableRef

from .harness import Case, HostileEnv

_DONE: dict[tuple[int, str], TableRef] = {}
D = 4


def _rows(env: HostileEnv) -> TableRef:
    key = (id(env), "rows")
    if key not in _DONE:
        t = env.work("lplus rows")
        env.run(
            "lplus/rows.sql",
            {"hids": [1, 2, 3, 4]},
            target=t,
            source=env.source,
            qi=env.qi,
            sa=env.sa,
            klass=env.klass,
        )
        _DONE[key] = t
    return _DONE[key]


def _cells(env: HostileEnv) -> TableRef:
    key = (id(env), "cells")
    if key not in _DONE:
        t = env.work("lplus cells")
        env.run("lplus/cells_table.sql", target=t, d=D)
        cols = ", ".join(f"l{i}" for i in range(1, D + 1))
        gs = ", ".join(f"l{i} AS g{i}" for i in range(1, D + 1))
        env.con.execute(
            f"INSERT INTO {t.sql()} SELECT {cols}, s, k, {gs}, 1, 1, false FROM {_rows(env).sql()} GROUP BY ALL"
        )
        _DONE[key] = t
    return _DONE[key]


CASES = {
    "lplus/rows.sql": Case(
        lambda env: {
            "target": env.work("lplus rows 2"),
            "source": env.source,
            "qi": env.qi,
            "sa": env.sa,
            "klass": env.klass,
        },
        params={"hids": [1, 2, 3, 4]},
    ),
    "lplus/histogram.sql": Case(lambda env: {"rows": _rows(env), "d": D}),
    "lplus/cells_table.sql": Case(lambda env: {"target": env.work("lplus cells 2"), "d": D}),
    "lplus/assign.sql": Case(
        lambda env: {"target": env.work("lplus assignment"), "rows": _rows(env), "cells": _cells(env), "d": D}
    ),
    "lplus/labels.sql": Case(
        lambda env: {"target": env.work("lplus labels"), "rows": _rows(env), "cells": _cells(env), "d": D},
        params={"hids": [1, 2, 3, 4]},
    ),
    "lplus/summary.sql": Case(lambda env: {"cells": _cells(env), "rows": _rows(env), "d": D}),
}
