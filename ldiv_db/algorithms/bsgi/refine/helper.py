"""A second process for the BSGI exchange's rounds (:mod:`.exchange`): arrays in shared memory, made before
a fork, and a forked child that prices and applies one of each round's two chunks while this process does
the other.

Why a process. A round's chunks on two threads share the interpreter lock: each of a chunk's many small
numpy steps lets it go and takes it back, and with the other thread in Python between its own steps, each
take is a sleep and a wake-up; the hand-overs cost most of what the second thread gives. A forked child
has a lock of its own.

What the child may touch. It is forked from the refiner at the start of a run, so it sees every array the
refiner read until then as it was (the rows' codes, keys and tables, which never change). Everything a
chunk writes — the classes' members, costs, flags and cached states — is made with :func:`zeros` (or
copied by :func:`shared_copy`) before the fork: anonymous ``MAP_SHARED`` pages, where each process sees
the other's writes. A round's two chunks write disjoint classes, as on threads, and each side waits for
the other at the round's end (the pipe's reply), so the next round sees both. The child runs numpy only,
never the engine's connection or another thread's locks, and leaves with ``os._exit``. A failure in it
is sent back and raised here (:class:`~ldiv_db.errors.InternalError`), as is its death: never a partial
round taken for a whole one."""

from __future__ import annotations

import contextlib
import gc
import mmap
import os
import signal
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe
from types import TracebackType
from typing import Any

import numpy as np

from ....errors import InternalError
from ....util.memory import keep_freed, release_freed


def zeros(shape: int | tuple[int, ...], dtype: Any = float) -> np.ndarray[Any, Any]:
    """``np.zeros(shape, dtype)`` in anonymous shared memory: writes made after a fork, by either process,
    are seen by both."""
    dt = np.dtype(dtype)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    count = int(np.prod(dims, dtype=np.int64))
    buf = mmap.mmap(-1, max(count * dt.itemsize, 1))  # anonymous, MAP_SHARED, zero-filled
    return np.frombuffer(buf, dtype=dt, count=count).reshape(dims)


def shared_copy(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A copy of ``x`` in shared memory (:func:`zeros`)."""
    out = zeros(x.shape, x.dtype)
    out[...] = x
    return out


MAX_WORKERS = 4  # threads (or processes) pricing a round's chunks side by side (at most the CPUs)


def can_fork() -> bool:
    """Whether this platform forks (POSIX; not Windows)."""
    return hasattr(os, "fork")


def workers() -> int:
    """Threads for a round's chunks: the CPUs this process may run on, at most ``MAX_WORKERS``."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cpus))


class Helper:
    """A forked child that answers each job sent to it with ``serve(job)``, in order; a context manager
    (on leaving, the child is told to stop and waited for, or killed where the block failed)."""

    def __init__(self, serve: Callable[[Any], Any]) -> None:
        release_freed(collect=False)  # no freed pages shared at the fork that this process then rewrites
        here, there = Pipe()
        gc.freeze()  # the objects alive now: the child's collections leave their pages shared
        try:
            pid = os.fork()
        except OSError:
            gc.unfreeze()
            here.close()
            there.close()
            raise
        if pid == 0:  # the child: serve until told to stop, then leave without the parent's clean-ups
            code = 1
            try:
                here.close()
                keep_freed()  # its chunks' arrays reuse the heap, not pages faulted in afresh each round
                code = _serve(there, serve)
            finally:
                os._exit(code)
        gc.unfreeze()
        there.close()
        self.pid, self._conn, self._waiting = pid, here, 0

    def send(self, job: Any) -> None:
        """Hand ``job`` to the child; :meth:`result` reads its answer."""
        try:
            self._conn.send(job)
        except OSError as e:
            raise InternalError(f"the exchange's helper process is gone ({self._ended()})") from e
        self._waiting += 1

    def result(self) -> Any:
        """The child's answer to the oldest job not yet read; its failure or death raised here."""
        try:
            kind, value = self._conn.recv()
        except (EOFError, OSError) as e:
            raise InternalError(f"the exchange's helper process ended mid-round ({self._ended()})") from e
        self._waiting -= 1
        if kind != "ok":
            raise InternalError(f"the exchange's helper process failed:\n{value}")
        return value

    def _ended(self) -> str:
        """How the child ended (it closed its end of the pipe: it is exiting, give it a few seconds)."""
        for _ in range(50):
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return "already reaped"
            if pid:
                break
            time.sleep(0.1)
        else:
            return "still running"
        self.pid = 0
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit status {os.WEXITSTATUS(status)}"

    def __enter__(self) -> Helper:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.pid and kind is None and not self._waiting:
            with contextlib.suppress(OSError):  # a child already gone: its status says how
                self._conn.send(None)
            _, status = os.waitpid(self.pid, 0)
            self.pid = 0
            self._conn.close()
            if status:
                raise InternalError(f"the exchange's helper process ended with status {status}")
            return
        if self.pid:  # the block failed (or left a job unanswered): the child's work is of no use
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0
        self._conn.close()


def start(serve: Callable[[Any], Any]) -> Helper | None:
    """A :class:`Helper`, or None where the system cannot fork now (no memory or processes left): the
    caller's threads then do the work, in the same shared arrays."""
    try:
        return Helper(serve)
    except OSError:
        return None


def _serve(conn: Connection, serve: Callable[[Any], Any]) -> int:
    """The child's loop: each job answered ("ok", result) or ("error", its traceback), then stop."""
    try:
        while (job := conn.recv()) is not None:
            try:
                conn.send(("ok", serve(job)))
            except Exception:
                conn.send(("error", traceback.format_exc()))
                return 1
        return 0
    except BaseException:  # the parent gone, an interrupt: nothing left to answer
        return 1
