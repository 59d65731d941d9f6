"""Template cases: sql/session/ (a DuckDB connection's catalogs; the other engines have no such statements)."""

from __future__ import annotations

from ldiv_db.sqlgen.render import Ident

from .harness import Case, HostileEnv

_ALIAS = "scratch's"
_DUCKDB = ("duckdb",)


def _detached(env: HostileEnv) -> None:
    env.con.execute(f"DETACH DATABASE IF EXISTS {Ident(_ALIAS)}")


def _attached(env: HostileEnv) -> None:
    env.con.execute(f"ATTACH IF NOT EXISTS ':memory:' AS {Ident(_ALIAS)}")


CASES = {
    "session/attach.sql": Case(
        lambda env: {"alias": Ident(_ALIAS), "mode": "read_write"},
        {"path": ":memory:"},
        prepare=_detached,
        engines=_DUCKDB,
    ),
    "session/detach.sql": Case(lambda env: {"alias": Ident(_ALIAS)}, prepare=_attached, engines=_DUCKDB),
    # the current catalog of the in-memory fixture: USE changes nothing the other cases see
    "session/use.sql": Case(lambda env: {"catalog": Ident("memory")}, engines=_DUCKDB),
}
