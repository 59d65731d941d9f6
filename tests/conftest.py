from __future__ import annotations

import os

import pytest

from tests.report_env import ReportEnv, build


@pytest.fixture(scope="session")
def report_env(tmp_path_factory: pytest.TempPathFactory) -> ReportEnv:
    """The report test database and its two pages (built once per session)."""
    return build(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="session")
def pg_server():  # type: ignore[no-untyped-def]
    """A real PostgreSQL server on localhost for the whole session (tests/engines/pg_server.py).

    Without the server binaries or psycopg the PostgreSQL tests skip with the reason, unless
    LDIV_REQUIRE_POSTGRES=1 (set by .ci/run): then that is a failure."""
    from tests.engines import pg_server as server_mod

    try:
        server = server_mod.start()
    except server_mod.ServerUnavailable as exc:
        if os.environ.get("LDIV_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL server required but not available: {exc}")
        pytest.skip(f"PostgreSQL server not available: {exc}")
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:  # type: ignore[no-untyped-def]
    """A fresh database on the session's server, as a postgresql:// URL with the test role's password."""
    return str(pg_server.url(pg_server.new_database()))


@pytest.fixture(autouse=True)
def one_drawn_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs without --seed draw one fixed seed in the tests, as a test fixes a random generator: their
    ties fall by one key (ldiv_db/pipeline/opaque.py), run after run and engine after engine. A test of
    the drawing itself restores ``opaque.run_seed``."""
    from ldiv_db.pipeline import opaque

    monkeypatch.setattr(opaque, "run_seed", lambda given: 20261126 if given is None else given)
