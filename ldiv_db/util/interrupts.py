"""Ctrl-C around a commit point (issue 51, class 7: what is recorded must be what happened).

A SIGINT that lands while :func:`deferred` runs its block (a transaction's COMMIT or ROLLBACK, the
statement that records how a run ended) is held and delivered once the block is over: a COMMIT is never
cut in two, and a run's end is recorded whole. The block runs to its end; the interrupt then takes its
usual course (the previous handler is called, which raises KeyboardInterrupt).

What a command committed is noted here (:func:`note_committed`, called by the code that commits, under
the deferral, right after the COMMIT), so that a Ctrl-C reported later says what is already in the
database instead of "nothing was written" (:func:`committed`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

_COMMITTED: list[str] = []


def note_committed(what: str) -> None:
    """``what`` (e.g. "release main.r (release 3, run 5)") is committed: an interrupt from now on comes
    after it."""
    _COMMITTED.append(what)


def committed() -> list[str]:
    """What this command has committed so far (in order)."""
    return list(_COMMITTED)


def clear_committed() -> None:
    """A new command starts (the CLI's main)."""
    _COMMITTED.clear()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run the block with SIGINT held (see the module docstring). Outside the main thread, or where
    SIGINT is not handled by Python (ignored, or the default action), the block runs as it is: a
    KeyboardInterrupt is raised in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        yield
        return
    held: list[FrameType | None] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(frame)

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            _deliver(previous, held[-1])


@contextlib.contextmanager
def atomic(execute: Callable[[str], Any], errors: type[Exception]) -> Iterator[list[str]]:
    """A transaction on a connection whose ``execute`` runs BEGIN, COMMIT and ROLLBACK: the block runs
    between BEGIN and COMMIT, and puts in the yielded list what it wrote (for :func:`note_committed`).
    Any exception before the COMMIT has completed (a Ctrl-C between the block's end and the COMMIT
    included) rolls back; the COMMIT and ROLLBACK run with Ctrl-C held; the notes are made right after
    the COMMIT, still held. So a Ctrl-C is either before the commit point or after it, and
    :func:`committed` tells which."""
    execute("BEGIN TRANSACTION")
    notes: list[str] = []
    done = False
    try:
        yield notes
        with deferred():
            execute("COMMIT")
            done = True
            _COMMITTED.extend(notes)
    except BaseException:
        if not done:
            with deferred(), contextlib.suppress(errors):
                execute("ROLLBACK")
        raise


def _deliver(handler: Any, frame: FrameType | None) -> None:
    """The held SIGINT, given to the handler it was meant for (it raises KeyboardInterrupt)."""
    handler(signal.SIGINT, frame)
