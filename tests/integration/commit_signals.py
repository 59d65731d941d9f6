"""The child process of tests/integration/test_commit_point.py: runs ``ldiv anonymize`` (the CLI's main,
in this real process) once per case, each on its own database (a DuckDB file or a PostgreSQL URL)
holding the same source, with a real SIGINT sent at a chosen moment, and prints one JSON line per case:
the exit code, what the CLI printed, and what the database holds afterwards (the run's status and note,
the release record, the release table).

A case is ``ALGORITHM:HOOK:DELAY:DATABASE``. HOOK names the moment the SIGINT is raised (``signal.raise_signal``,
delivered at once in this main thread, as a terminal's Ctrl-C is):

* ``record``: while the release's record (``ldiv.release``) is being inserted — before the commit;
* ``commit``: as the COMMIT of the release's transaction starts — a Ctrl-C during the COMMIT;
* ``finish``: as the run's end (``done``) is being recorded — with the release's records, in its
  transaction, before the commit;
* ``published``: once the publish step has returned — after the commit, the run's end recorded with it;
* ``emit``: as the CLI prints the result — after everything was recorded;
* ``import``: as the CLI prints the result, inside what the CLI's handler takes for an import, so the
  handler asks for the signal again later (in 0.3 s) — by then the command has ended;
* ``timer``: a timer thread sends it DELAY seconds after the COMMIT started (a sweep of real
  asynchronous signals around the commit).

Usage: python -m tests.integration.commit_signals CASE...
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import signal
import sys
import threading
import time
from typing import Any

import duckdb

from ldiv_db.cli import main as cli
from ldiv_db.cli import sigint
from ldiv_db.db import Database
from ldiv_db.db.duckdb import engine as embedded
from ldiv_db.db.postgres import engine as postgres

signal.signal(signal.SIGINT, signal.default_int_handler)  # as a user's terminal hands it over
anonymize_module = importlib.import_module("ldiv_db.commands.anonymize")

ARGS = {
    "mondrian": ["--algorithm", "mondrian"],
    "tp+": ["--algorithm", "tp+"],
    "full-domain": ["--algorithm", "full-domain", "--levels", "age=2,sex=0", "--suppression-limit", "0.1"],
}
STATE: dict[str, Any] = {"hook": None, "delay": 0.0, "timer": None, "armed": False}
LOCK = threading.Lock()


def _ctrl_c() -> None:
    signal.raise_signal(signal.SIGINT)


class _Con:
    """The engine connection with the COMMIT hook (a DuckDB connection's methods cannot be patched)."""

    def __init__(self, con: Any) -> None:
        self._con = con

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)

    def execute(self, sql: Any, *args: Any, **kwargs: Any) -> Any:
        _before_commit(sql)
        return self._con.execute(sql, *args, **kwargs)


def _before_commit(sql: Any) -> None:
    if sql != "COMMIT":
        return
    with LOCK:  # against run_case's disarming: a timer is started only while a case is armed
        if not STATE["armed"]:  # the first COMMIT after the release's record
            return
        hook, STATE["hook"], STATE["armed"] = STATE["hook"], None, False
        if hook != "commit":
            # to the main thread itself, where Python runs the handler: a process-wide signal may be
            # delivered by way of another thread after the timer ended, past run_case's join
            main = threading.main_thread().ident
            timer = threading.Timer(STATE["delay"], signal.pthread_kill, (main, signal.SIGINT))
            STATE["timer"] = timer
            timer.start()
            return
    _ctrl_c()


_init = embedded.DuckDBDatabase.__init__
_send = embedded.DuckDBDatabase._send
_pg_send = postgres.PostgresDatabase._send
_pg_tx = postgres.PostgresDatabase._tx_statement
_publish = anonymize_module.publish
_emit = cli._emit
_importing, _retry = sigint.importing, sigint.RETRY


def _hooked_init(self: Any, con: Any, path: Any, *, owned: bool) -> None:
    _init(self, _Con(con) if isinstance(con, duckdb.DuckDBPyConnection) else con, path, owned=owned)


def _before_send(query: Any) -> None:
    if STATE["hook"] in ("commit", "timer") and query.name == "meta/release_insert.sql":
        STATE["armed"] = True
    if (STATE["hook"], query.name) in (
        ("record", "meta/release_insert.sql"),
        ("finish", "meta/run_finish.sql"),
    ):
        STATE["hook"] = None
        _ctrl_c()


def _hooked_send(self: Any, query: Any) -> Any:
    _before_send(query)
    return _send(self, query)


def _hooked_pg_send(self: Any, query: Any) -> Any:
    _before_send(query)
    return _pg_send(self, query)


def _hooked_pg_tx(self: Any, sql: str) -> None:
    _before_commit(sql)
    _pg_tx(self, sql)


def _hooked_publish(*args: Any, **kwargs: Any) -> Any:
    result = _publish(*args, **kwargs)
    if STATE["hook"] == "published":
        STATE["hook"] = None
        _ctrl_c()
    return result


def _hooked_emit(args: Any, result: Any, **kw: Any) -> None:
    if STATE["hook"] == "emit":
        STATE["hook"] = None
        _ctrl_c()
    if STATE["hook"] == "import":
        STATE["hook"] = None
        sigint.importing = lambda frame: True
        sigint.RETRY = 0.3
        try:
            _ctrl_c()
        finally:
            sigint.importing, sigint.RETRY = _importing, _retry
    _emit(args, result, **kw)


embedded.DuckDBDatabase.__init__ = _hooked_init  # type: ignore[method-assign]
embedded.DuckDBDatabase._send = _hooked_send  # type: ignore[method-assign]
postgres.PostgresDatabase._send = _hooked_pg_send  # type: ignore[method-assign]
postgres.PostgresDatabase._tx_statement = _hooked_pg_tx  # type: ignore[method-assign]
anonymize_module.publish = _hooked_publish
cli._emit = _hooked_emit


def _state(target: str) -> dict[str, Any]:
    db = Database.open(target, mode="read")
    try:
        runs = db.raw_rows("SELECT status, error FROM ldiv.run ORDER BY run_id")
        releases = db.raw_rows("SELECT release_id, run_id FROM ldiv.release WHERE name = 'main.r'")
        table = db.raw_rows(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'r'"
        )
    finally:
        db.close()
    return {"runs": runs, "releases": releases, "table": bool(table[0][0])}


def run_case(db: str, algorithm: str, hook: str, delay: float) -> dict[str, Any]:
    argv = ["anonymize", db, "--table", "census", "--qi", "age,sex", "--sa", "occupation", "--l", "3"]
    argv += [*ARGS[algorithm], "--output", "r", "--quiet"]
    STATE.update(hook=hook, delay=delay, timer=None, armed=False)
    out, err = io.StringIO(), io.StringIO()
    code: int | str
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
            with LOCK:  # a COMMIT from now on (a thread the command left) starts no timer
                STATE["armed"] = False
                timer = STATE["timer"]
            if timer is not None:
                timer.join()  # a signal after the command ended reaches this harness (below)
    except KeyboardInterrupt:
        code = "late"  # the command had ended: its outcome stands
    STATE["hook"] = None
    time.sleep(0.5 if hook == "import" else 0)  # past a re-sent signal's moment
    return {"algorithm": algorithm, "hook": hook, "delay": delay, "code": code, "stdout": out.getvalue(),
            "stderr": err.getvalue(), **_state(db)}  # fmt: skip


def main(argv: list[str]) -> int:
    for case in argv:
        algorithm, hook, delay, db = case.split(":", 3)
        print(json.dumps(run_case(db, algorithm, hook, float(delay)), default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
