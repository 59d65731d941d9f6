"""A local session's first Spark job, run in a thread beside the connection's first catalog call.

A process's first Spark job costs about a second more than the ones after it (the scheduler, the task
runner, a shuffle, code generation and the Arrow transfer load and compile their classes on first use),
and the first catalog call (the Hive client starting on Derby) takes as long again on a single thread.
A local session therefore runs a small statement of its own (no table, no catalog, nothing written) while the
connection opens its catalog and checks the migrations, and the connection waits for it before its first
statement: on an idle second core the two overlap, on a busy one they take turns as before
(docs/decisions/0032-spark-session-and-statements.md, Round 5).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from ...sqlgen.dialects import translate
from ...sqlgen.render import render
from .dialect import SPARK

_STARTED: set[int] = set()  # the sessions (by id) whose warm-up job has been started
_LOCK = threading.Lock()


def start(session: Any) -> threading.Thread | None:
    """The warm-up job of ``session`` in a daemon thread, once per session; None when it ran already."""
    with _LOCK:
        if id(session) in _STARTED:
            return None
        _STARTED.add(id(session))
    thread = threading.Thread(target=_job, args=(session,), name="ldiv-spark-warm-up", daemon=True)
    thread.start()
    return thread


def finish(thread: threading.Thread | None, timeout: float = 60.0) -> None:
    """Wait for the warm-up job (it ends in about a second); a statement sent meanwhile would only queue."""
    if thread is not None:
        thread.join(timeout)


def _job(session: Any) -> None:
    """``session/warm_up.sql`` (no table: a cross, an inner and an outer join, a grouped count, a window,
    a union, a global order), parsed by Spark and fetched through Arrow as the engine's statements are.
    Any failure is left to the statements, which meet it themselves."""
    with contextlib.suppress(Exception):
        (statement,) = translate(render("session/warm_up.sql").sql, SPARK)
        frame = session.sql(statement)
        to_arrow = getattr(frame, "toArrow", None)
        if to_arrow is not None:
            to_arrow()
        else:
            frame.collect()
