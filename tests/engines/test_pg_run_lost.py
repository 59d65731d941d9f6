"""Issue 51, class 9: a run is never left ``running`` on PostgreSQL. Its session is terminated from a
second connection (``pg_terminate_backend``) while it runs, or the server is stopped mid-run and started
again: the run ends ``failed`` with the reason (on a fresh connection when the server is there, else by
the next write command, which knows the owner is gone because the run's advisory lock is free), the CLI
exits 2 with a clear message, no release is left half-written, and ``ldiv doctor`` lists a run left
``running`` meanwhile. A run whose session is alive is never marked."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from fixtures import census
from ldiv_db.db import Database
from ldiv_db.schema.runs import LOST_NOTE, SESSION_GONE_NOTE, recorded_run
from tests.engines import pg_server as server_mod

ROOT = Path(__file__).resolve().parents[2]
ROWS = 20_000  # a mondrian run of a few seconds on PostgreSQL: long enough to be cut mid-run
ANONYMIZE = ["--table", "census", "--qi", "age,sex,race,education", "--sa", "occupation"]
ANONYMIZE += ["--algorithm", "mondrian", "--l", "3", "--quiet"]


def _ldiv(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ldiv_db.cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _done(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def _load(url: str, tmp: Path) -> None:
    csv = tmp / "census.csv"
    census.generate(ROWS, 5)[["age", "sex", "race", "education", "occupation"]].to_csv(csv, index=False)
    ldiv_db.load(url, csv, "census")


def _state(server: server_mod.PgServer, name: str) -> dict[str, Any]:
    with server.admin(name) as con:
        runs = con.execute("SELECT run_id, status, error FROM ldiv.run ORDER BY run_id").fetchall()
        releases = con.execute("SELECT run_id, name FROM ldiv.release ORDER BY run_id").fetchall()
        links = con.execute("SELECT count(*) FROM ldiv.release_row").fetchone()
        tables = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()
    return {
        "runs": runs,
        "releases": releases,
        "links": links[0] if links else None,
        "tables": sorted(t for (t,) in tables),
    }


def _wait_running(server: server_mod.PgServer, name: str, proc: subprocess.Popen[str]) -> list[int]:
    """The pids of ldiv's sessions once its run is recorded ``running``."""
    deadline = time.monotonic() + 120
    with server.admin(name) as con:
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            exists = con.execute("SELECT to_regclass('ldiv.run') IS NOT NULL").fetchone()
            if exists and exists[0]:
                running = con.execute("SELECT count(*) FROM ldiv.run WHERE status = 'running'").fetchone()
                if running and running[0]:
                    sessions = con.execute(
                        "SELECT pid FROM pg_stat_activity WHERE application_name = 'ldiv_db' "
                        "AND datname = current_database()"
                    ).fetchall()
                    return [int(p) for (p,) in sessions]
            time.sleep(0.01)
    raise AssertionError("the run never started")


@pytest.fixture
def own_server() -> Iterator[server_mod.PgServer]:
    """A server of this test's own (it is stopped and started again mid-test)."""
    try:
        server = server_mod.start()
    except server_mod.ServerUnavailable as exc:
        if os.environ.get("LDIV_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL server required but not available: {exc}")
        pytest.skip(f"PostgreSQL server not available: {exc}")
    yield server
    server.stop()


def test_a_terminated_session_ends_its_run_failed_on_a_fresh_connection(
    pg_server: Any, tmp_path: Path
) -> None:
    name = pg_server.new_database("lost")
    url = pg_server.url(name)
    _load(url, tmp_path)
    proc = _ldiv("anonymize", url, *ANONYMIZE, "--output", "rel")
    pids = _wait_running(pg_server, name, proc)
    with pg_server.admin(name) as con:
        for pid in pids:
            con.execute("SELECT pg_terminate_backend(%s)", [pid])
    code, _, err = _done(proc)
    assert code == 2 and "Traceback" not in err, err
    assert "lost the PostgreSQL connection" in err and "run 1 is recorded failed" in err, err
    after = _state(pg_server, name)
    [(run, status, note)] = after["runs"]
    assert (run, status) == (1, "failed") and note.startswith(LOST_NOTE), after
    assert after["releases"] == [] and after["links"] == 0 and after["tables"] == ["census"], after
    print(f"terminated {len(pids)} session(s) mid-run: run {run} {status}: {note}")


# Runs `ldiv anonymize` in this process; when the release's record is about to be inserted (the release's
# tables written, its transaction open) a second connection terminates the run's session.
TERMINATE_AT_RECORD = """
import sys
import psycopg
from ldiv_db.cli.main import main
from ldiv_db.db.postgres import engine as postgres

send = postgres.PostgresDatabase._send

def hooked(self, query):
    if query.name == "meta/release_insert.sql":
        with psycopg.connect(sys.argv[1], autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [self.pg.info.backend_pid])
    return send(self, query)

postgres.PostgresDatabase._send = hooked
sys.exit(main(["anonymize", sys.argv[1], *sys.argv[2:]]))
"""


def test_a_session_terminated_inside_the_release_transaction_leaves_no_release(
    pg_server: Any, tmp_path: Path
) -> None:
    name = pg_server.new_database("lost")
    url = pg_server.url(name)
    _load(url, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", TERMINATE_AT_RECORD, url, *ANONYMIZE, "--output", "rel"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "meta/release_insert.sql" in proc.stderr and "run 1 is recorded failed" in proc.stderr
    after = _state(pg_server, name)
    assert [r[1] for r in after["runs"]] == ["failed"], after
    # the release's tables were written in the transaction the server rolled back
    assert after["releases"] == [] and after["links"] == 0 and after["tables"] == ["census"], after


def test_a_server_stopped_mid_run_leaves_the_run_to_the_next_write(own_server: Any, tmp_path: Path) -> None:
    name = own_server.new_database("stop")
    url = own_server.url(name)
    _load(url, tmp_path)
    proc = _ldiv("anonymize", url, *ANONYMIZE, "--output", "rel")
    _wait_running(own_server, name, proc)
    own_server.halt()
    code, _, err = _done(proc)
    assert code == 2 and "Traceback" not in err, err
    assert "lost the PostgreSQL connection" in err and "run 1 could not be recorded" in err, err
    own_server.resume()
    assert [r[1] for r in _state(own_server, name)["runs"]] == ["running"]  # nobody could record it
    code, out, err = _done(_ldiv("doctor", url))
    assert code == 0 and "run 1 is 'running' but its owner is gone" in out, out + err
    assert [r[1] for r in _state(own_server, name)["runs"]] == ["running"]  # the doctor only reads
    code, out, err = _done(_ldiv("anonymize", url, *ANONYMIZE, "--output", "rel2"))
    assert code == 0, err
    after = _state(own_server, name)
    assert [(r[0], r[1]) for r in after["runs"]] == [(1, "failed"), (2, "done")], after
    assert after["runs"][0][2] == SESSION_GONE_NOTE
    assert after["releases"] == [(2, "main.rel2")] and after["tables"] == ["census", "rel2"], after
    print(f"server stopped mid-run: run 1 failed ({SESSION_GONE_NOTE}); run 2 done")


def test_a_run_whose_session_lives_is_never_marked(pg_server: Any, tmp_path: Path) -> None:
    """Another process's write open ends only the runs whose lock it can take: a live run's is held."""
    name = pg_server.new_database("live")
    url = pg_server.url(name)
    csv = tmp_path / "small.csv"
    csv.write_text("a,b\n1,x\n2,y\n")
    db = Database.open(url)
    try:
        with recorded_run(
            db, command="anonymize", algorithm="x", source="s", output="o", params="{}", t0=0.0, q0=0
        ) as run:
            code, _, err = _done(_ldiv("load", url, str(csv), "--table", "small"))  # a write open
            assert code == 0, err
            assert [r[1] for r in _state(pg_server, name)["runs"]] == ["running"]
            code, out, _ = _done(_ldiv("doctor", url))
            assert code == 0 and "owner is gone" not in out, out
        assert run.run_id == 1
    finally:
        db.close()
    assert [r[1] for r in _state(pg_server, name)["runs"]] == ["done"]
