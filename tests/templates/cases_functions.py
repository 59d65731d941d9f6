"""Template cases: sql/functions/ (``ldiv sql install``): each creates its macro (DuckDB) or function
(PostgreSQL) in schema ldiv of the hostile fixture's database; tests/integration/test_sql_functions.py
calls them on the hostile table."""

from __future__ import annotations

from .harness import Case, HostileEnv


def _version_first(env: HostileEnv) -> None:
    env.run("functions/version.sql")


def _class_stats_first(env: HostileEnv) -> None:
    # the macros built on ldiv.class_stats cannot be created without it, and the test processes share
    # no order: each case installs what it stands on
    env.run("functions/class_stats.sql")


CASES = {
    "functions/class_stats.sql": Case(lambda env: {}),
    "functions/l_diversity.sql": Case(lambda env: {}, prepare=_class_stats_first),
    "functions/violations.sql": Case(lambda env: {}, prepare=_class_stats_first),
    "functions/recursive_violations.sql": Case(lambda env: {}, prepare=_class_stats_first),
    "functions/version.sql": Case(lambda env: {}),
    "functions/installed.sql": Case(lambda env: {}),
    "functions/revision.sql": Case(lambda env: {}, prepare=_version_first),
}
