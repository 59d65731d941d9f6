"""The run lifecycle in ``ldiv.run``: ``running`` when a run starts, then ``done``, ``failed`` or
``interrupted`` (Ctrl-C) when it ends. A run stopped after its release was committed is ``done`` (with a
note): the release is complete. Which of the two is decided by the database (does the run's release
exist?), and the end is recorded with Ctrl-C held (:func:`ldiv_db.interrupts.deferred`), so a second
Ctrl-C cannot leave the run ``running``.

A run whose process was killed cannot record its end. DuckDB lets one process at a time open a file for
writing, so a ``running`` row that a new writer sees is dead unless this very process started it (a
run on another connection of the same process is registered in ``_LIVE`` until it ends):
:func:`mark_stale_runs`, called on every write open, marks those rows ``interrupted``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import interrupts
from ..errors import LdivError, interrupt_requested
from ..render import render

if TYPE_CHECKING:
    from ..db import Database

STALE_NOTE = "interrupted: the process stopped before the run finished (marked by a later command)"
CTRL_C_NOTE = "interrupted by the user (Ctrl-C); nothing of this run was published"
PUBLISHED_NOTE = "the process stopped right after its release was committed (the release is complete)"
CTRL_C_PUBLISHED_NOTE = (
    "interrupted by the user (Ctrl-C) after its release was committed (the release is complete)"
)

_LIVE: set[tuple[str, int]] = set()  # (database file, run_id) of the runs this process has under way


def _file_key(db: Database) -> str:
    if db.dialect != "duckdb":
        return str(db.path)
    row = db.raw_rows(
        "SELECT path, database_name FROM duckdb_databases() WHERE database_name = current_database()"
    )[0]
    return os.path.realpath(str(row[0])) if row[0] else f"memory:{row[1]}"


def _end_unfinished(
    db: Database,
    run_id: int | None,
    live: list[int],
    note: str,
    seconds: float | None = None,
    queries: int | None = None,
    *,
    published_note: str = PUBLISHED_NOTE,
) -> list[tuple[int, str]]:
    params = {
        "run_id": run_id,
        "live": live,
        "note": note,
        "published_note": published_note,
        "seconds": seconds,
        "queries": queries,
    }
    return [(int(r), str(s)) for r, s in db.rows(render("meta/run_interrupt.sql", params))]


def mark_stale_runs(db: Database) -> list[tuple[int, str]]:
    """End every ``running`` run of another (stopped) process: ``interrupted``, or ``done`` when its
    release was committed before the process stopped. Returns (run_id, status) of each."""
    key = _file_key(db)
    return _end_unfinished(db, None, sorted(run for k, run in _LIVE if k == key), STALE_NOTE)


@dataclass
class Run:
    """A started run; set ``metrics`` before the block ends to store them with status ``done``."""

    run_id: int
    metrics: dict[str, Any] | None = None


def finish_run(
    db: Database,
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
    db: Database, *, command: str, algorithm: str, source: str, output: str, params: str, t0: float, q0: int
) -> Iterator[Run]:
    """Record a run in ``ldiv.run`` around the block: ``done`` when it ends normally, ``failed`` with the
    error, ``interrupted`` on Ctrl-C (then the KeyboardInterrupt goes on)."""
    start = {"command": command, "algorithm": algorithm, "source": source, "output": output, "params": params}
    run = Run(int(db.scalar(render("meta/run_start.sql", start))))
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
        with interrupts.deferred(), contextlib.suppress(Exception):
            finish_run(db, run.run_id, "failed", t0, q0, None, error)
        raise
    else:
        with interrupts.deferred():  # the end is recorded whole; a Ctrl-C meanwhile comes after it
            finish_run(db, run.run_id, "done", t0, q0, run.metrics, None)
    finally:
        _LIVE.discard(key)


def _interrupted(db: Database, run_id: int, t0: float, q0: int) -> None:
    """Ctrl-C ended the run: ``done`` (with :data:`CTRL_C_PUBLISHED_NOTE`) when its release is in the
    database (the interrupt came after the commit point), else ``interrupted``. Decided by the database,
    not by where the interrupt was seen."""
    with interrupts.deferred(), contextlib.suppress(Exception):
        _end_unfinished(
            db,
            run_id,
            [],
            CTRL_C_NOTE,
            time.perf_counter() - t0,
            db.queries - q0,
            published_note=CTRL_C_PUBLISHED_NOTE,
        )
        db.flush_steps(run_id)
