"""Work beside the connection: a function run in a thread of its own — numpy that reads nothing from the
database, or the statements of a second reader (:meth:`ldiv_db.db.Database.side_reader`) — whose result,
or error, the caller takes when it needs it. Numpy and the embedded engine release the interpreter lock
while they work, so the thread and the connection's own statements run on two cores."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()  # every Background whose thread may still run


class Background(Generic[T]):
    """``fn`` running in a daemon thread from construction; :meth:`result` waits for it and returns its
    value or re-raises its error (``helper``, if given, is called first in the waiting thread: a share of
    the work the caller can take instead of idling); :meth:`cancel` asks ``interrupt`` (if given) to stop
    it and waits, through a second Ctrl-C (the thread is stopping; the interrupt goes on after it).
    No thread may be left inside the engine when the process exits: a thread still in the engine's
    compiled code when the interpreter ends its threads aborts the process (:func:`stop_all`)."""

    def __init__(
        self,
        fn: Callable[[], T],
        *,
        name: str,
        interrupt: Callable[[], object] | None = None,
        helper: Callable[[], object] | None = None,
    ) -> None:
        self._value: T | None = None
        self._error: BaseException | None = None
        self._interrupt = interrupt
        self._helper = helper
        self._thread = threading.Thread(target=self._run, args=(fn,), name=name, daemon=True)
        _LIVE.add(self)
        self._thread.start()

    def _run(self, fn: Callable[[], T]) -> None:
        try:
            self._value = fn()
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def result(self) -> T:
        if self._helper is not None and self._thread.is_alive():
            with contextlib.suppress(Exception):  # the work's own error reaches the caller below
                self._helper()
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def cancel(self) -> None:
        pending: KeyboardInterrupt | None = None
        while self._thread.is_alive():
            if self._interrupt is not None:
                with contextlib.suppress(Exception):
                    self._interrupt()
            try:
                self._thread.join()
            except KeyboardInterrupt as exc:  # Ctrl-C again: ask again, wait again, then pass it on
                pending = exc
        _LIVE.discard(self)
        if pending is not None:
            raise pending


def stop_all() -> None:
    """Stop and wait for every background thread still running (the CLI calls this when a command ends on
    Ctrl-C; on an error, the code that started a thread stops it on the way out)."""
    for job in list(_LIVE):
        job.cancel()
