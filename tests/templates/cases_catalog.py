"""Template cases: sql/catalog/."""

from __future__ import annotations

from .harness import Case, HostileEnv


def _cols(env: HostileEnv) -> dict[str, object]:
    return {"source": env.source, "columns": [*env.qi, env.sa]}


CASES = {
    "catalog/tables.sql": Case(lambda env: {}),
    "catalog/columns.sql": Case(lambda env: {}, {"catalog": "memory", "schema": "main", "name": "select"}),
    "catalog/table_exists.sql": Case(lambda env: {}, {"catalog": None, "schema": "main", "name": "select"}),
    "catalog/null_counts.sql": Case(_cols),
    "catalog/row_count.sql": Case(lambda env: {"source": env.source}),
}
