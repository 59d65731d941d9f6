"""The test server itself: it starts, takes password logins only, and each test gets its own database."""

from __future__ import annotations

import pytest


def test_server_accepts_the_test_role_with_its_password(pg_server, pg_url) -> None:  # type: ignore[no-untyped-def]
    import psycopg

    with psycopg.connect(pg_url) as con:
        user, db = con.execute("SELECT current_user, current_database()").fetchone()  # type: ignore[misc]
    assert user == "ldiv_tester"
    assert pg_url.endswith("/" + db)
    assert pg_server.startup_seconds > 0


def test_wrong_password_is_refused(pg_server) -> None:  # type: ignore[no-untyped-def]
    import psycopg

    url = pg_server.url("postgres", with_password=False).replace("ldiv_tester@", "ldiv_tester:wrong@")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(url).close()


def test_databases_are_separate(pg_server) -> None:  # type: ignore[no-untyped-def]
    import psycopg

    a, b = pg_server.new_database(), pg_server.new_database()
    with psycopg.connect(pg_server.url(a), autocommit=True) as con:
        con.execute("CREATE TABLE only_in_a (x int)")
    with psycopg.connect(pg_server.url(b)) as con:
        n = con.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'").fetchone()
    assert n == (0,)
