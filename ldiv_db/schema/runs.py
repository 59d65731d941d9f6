"""The run lifecycle in ``ldiv.run``: ``running`` when a run starts, then ``done``, ``failed`` or
``interrupted`` (Ctrl-C) when it ends. A run stopped after its release was committed is ``done`` (with a
note): the release is complete. Which of the two is decided by the database (does the run's release
exist?), and the end is recorded with Ctrl-C held (:func:`ldiv_db.util.interrupts.deferred`), so a second
Ctrl-C cannot leave the run ``running``.

A run whose process was killed, or whose connection died, cannot record its end where it ran. A run
whose connection died records it on a fresh connection when it can (:func:`_end_lost`); otherwise the
next write command that opens the database ends every ``running`` run whose owner is gone
(:func:`mark_stale_runs`): the engine tells which (:mod:`ldiv_db.db.owners`: DuckDB's single writer,
PostgreSQL's advisory lock per run), and ``ldiv doctor`` lists them (:func:`stale_runs`). A run of this
very process (another connection of it) is registered in ``_LIVE`` until it ends and is never marked.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import ConnectionLost, LdivError, interrupt_requested
from ..sqlgen.render import render
from ..util import interrupts
from ..version import __version__

if TYPE_CHECKING:
    from .database import SchemaDatabase

STALE_NOTE = "interrupted: the process stopped before the run finished (marked by a later command)"
SESSION_GONE_NOTE = (
    "failed: its database session ended before the run finished (terminated, the server stopped or the "
    "process killed); marked by a later command"
)
LOST_NOTE = "failed: the connection to the database server was lost"
CTRL_C_NOTE = "interrupted by the user (Ctrl-C); nothing of this run was published"
PUBLISHED_NOTE = "the process stopped right after its release was committed (the release is complete)"
CTRL_C_PUBLISHED_NOTE = (
    "interrupted by the user (Ctrl-C) after its release was committed (the release is complete)"
)

_LIVE: set[tuple[str, int]] = set()  # (database file, run_id) of the runs this process has under way


def _file_key(db: SchemaDatabase) -> str:
    if not db.embedded:
        return str(db.path)
    row = db.raw_rows(
        "SELECT path, database_name FROM duckdb_databases() WHERE database_name = current_database()"
    )[0]
    return os.path.realpath(str(row[0])) if row[0] else f"memory:{row[1]}"


def _end_unfinished(
    db: SchemaDatabase,
    runs: list[int],
    status: str,
    note: str,
    *,
    published_note: str = PUBLISHED_NOTE,
    stale: bool = False,
    seconds: float | None = None,
    queries: int | None = None,
) -> list[tuple[int, str]]:
    """End the ``running`` runs ``runs``: ``done`` with ``published_note`` when a run's release is in the
    database (it stopped after the commit point), else ``status`` with ``note``."""
    params = {
        "runs": runs,
        "status": status,
        "note": note,
        "published_note": published_note,
        "stale": stale,
        "seconds": seconds,
        "queries": queries,
    }
    return [(int(r), str(s)) for r, s in db.rows(render("meta/run_interrupt.sql", params))]


def stale_runs(db: SchemaDatabase) -> list[int]:
    """The ``running`` runs whose owner is gone (none of this process's runs)."""
    key = _file_key(db)
    live = {run for k, run in _LIVE if k == key}
    running = [int(r[0]) for r in db.rows(render("meta/running_runs.sql")) if int(r[0]) not in live]
    return db.owners_gone(running) if running else []


def mark_stale_runs(db: SchemaDatabase) -> list[tuple[int, str]]:
    """End every ``running`` run whose owner is gone: ``done`` when its release was committed, else the
    engine's status for it (``interrupted`` on DuckDB, ``failed`` on PostgreSQL). Returns (run_id,
    status) of each."""
    gone = stale_runs(db)
    if not gone:
        return []
    note = STALE_NOTE if db.stale_status == "interrupted" else SESSION_GONE_NOTE
    return _end_unfinished(db, gone, db.stale_status, note, stale=True)


@dataclass
class Run:
    """A started run; set ``metrics`` before the block ends to store them with status ``done``, or let
    the release pipeline record the end with the release (:meth:`end`)."""

    run_id: int
    metrics: dict[str, Any] | None = None
    db: SchemaDatabase | None = field(default=None, repr=False)
    started: tuple[float, int] = (0.0, 0)  # perf_counter and the connection's query count at the start
    ended: bool = False

    def end(self, metrics: dict[str, Any] | None) -> None:
        """Record the run ``done`` with ``metrics`` now, with its release's records: in the release's
        transaction where the engine has one (a rollback takes the end back with the release, and the
        run then ends as it fails), else right after the release's record. :func:`recorded_run` then
        writes no end of its own when the block ends normally."""
        assert self.db is not None
        finish_run(self.db, self.run_id, "done", *self.started, metrics, None)
        self.metrics, self.ended = metrics, True


def finish_run(
    db: SchemaDatabase,
    run_id: int,
    status: str,
    t0: float,
    q0: int,
    metrics: dict[str, Any] | None,
    error: str | None,
) -> None:
    params = {
        "run_id": run_id,
        "status": status,
        "seconds": time.perf_counter() - t0,
        "queries": db.queries - q0,
        "metrics": json.dumps(metrics, default=str, sort_keys=True) if metrics is not None else None,
        "error": error,
    }
    db.run(render("meta/run_finish.sql", params))
    db.flush_steps(run_id)


@contextlib.contextmanager
def recorded_run(
    db: SchemaDatabase,
    *,
    command: str,
    algorithm: str,
    source: str,
    output: str,
    params: str,
    t0: float,
    q0: int,
) -> Iterator[Run]:
    """Record a run in ``ldiv.run`` around the block: its start first, in a transaction of its own (what
    a killed process leaves: ``running``, later marked ``interrupted``); then ``done`` when it ends
    normally (unless :meth:`Run.end` recorded it with the release), ``failed`` with the error,
    ``interrupted`` on Ctrl-C (then the KeyboardInterrupt goes on)."""
    params = json.dumps({**json.loads(params), "ldiv_version": __version__}, sort_keys=True)  # who ran it
    start = {"command": command, "algorithm": algorithm, "source": source, "output": output, "params": params}
    with db.transaction():  # the row is visible only with its owner's claim (PostgreSQL: its lock)
        run = Run(int(db.scalar(render("meta/run_start.sql", start))), db=db, started=(t0, q0))
        db.claim_run(run.run_id)
    key = (_file_key(db), run.run_id)
    _LIVE.add(key)
    try:
        yield run
    except KeyboardInterrupt:
        _interrupted(db, run.run_id, t0, q0)
        raise
    except Exception as exc:
        if interrupt_requested():  # Ctrl-C surfaced by the engine as an error
            _interrupted(db, run.run_id, t0, q0)
            raise
        error = str(exc) if isinstance(exc, LdivError) else f"{type(exc).__name__}: {exc}"
        if db.connection_lost():
            raise _end_lost(db, run.run_id, error) from None
        with interrupts.deferred(), contextlib.suppress(Exception):
            finish_run(db, run.run_id, "failed", t0, q0, None, error)
        raise
    else:
        try:
            with interrupts.deferred():  # the end is recorded whole; a Ctrl-C meanwhile comes after it
                if not run.ended:  # else recorded with the release (Run.end)
                    finish_run(db, run.run_id, "done", t0, q0, run.metrics, None)
        except Exception as exc:
            if db.connection_lost():
                raise _end_lost(db, run.run_id, str(exc)) from None
            raise
    finally:
        _LIVE.discard(key)
        db.release_run(run.run_id)


def _end_lost(db: SchemaDatabase, run_id: int, error: str) -> ConnectionLost:
    """The run's connection died: its end is recorded on a fresh connection when one can be opened (the
    server rolled back the run's open transaction; a release it had committed makes it ``done``), else
    left to the next write command (:func:`mark_stale_runs`). Returns the error to raise, saying which."""
    message = error.split("\n  hint: ")[0]
    fresh, ended = None, None
    with contextlib.suppress(Exception):
        fresh = db.fresh_session()
        if fresh is not None:
            with interrupts.deferred():
                ended = _end_unfinished(fresh, [run_id], "failed", f"{LOST_NOTE}: {message}")
    if fresh is not None:
        with contextlib.suppress(Exception):
            fresh.close()
    if ended is None:
        return ConnectionLost(
            f"{message}; run {run_id} could not be recorded as ended (the server is unreachable)",
            "the next ldiv command that writes to this database records it failed; `ldiv doctor` lists it",
        )
    if not ended:  # another session ended it meanwhile
        return ConnectionLost(f"{message}; run {run_id} had already been ended", "see ldiv.run")
    if ended[0][1] == "done":
        return ConnectionLost(
            f"{message}; the release had been committed: run {run_id} is recorded done",
            "the release is complete",
        )
    return ConnectionLost(
        f"{message}; run {run_id} is recorded failed and nothing of it was published",
        "check the server, then run the command again",
    )


def _interrupted(db: SchemaDatabase, run_id: int, t0: float, q0: int) -> None:
    """Ctrl-C ended the run: ``done`` (with :data:`CTRL_C_PUBLISHED_NOTE`) when its release is in the
    database (the interrupt came after the commit point), else ``interrupted``. Decided by the database,
    not by where the interrupt was seen."""
    with interrupts.deferred(), contextlib.suppress(Exception):
        _end_unfinished(
            db,
            [run_id],
            "interrupted",
            CTRL_C_NOTE,
            published_note=CTRL_C_PUBLISHED_NOTE,
            seconds=time.perf_counter() - t0,
            queries=db.queries - q0,
        )
        db.flush_steps(run_id)
