"""Work beside the connection: a function run in a thread of its own — numpy that reads nothing from the
database, or the statements of a second reader (:meth:`ldiv_db.db.Database.side_reader`) — whose result,
or error, the caller takes when it needs it. Numpy and the embedded engine release the interpreter lock
while they work, so the thread and the connection's own statements run on two cores."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """``fn`` running in a daemon thread from construction; :meth:`result` waits for it and returns its
    value or re-raises its error (``helper``, if given, is called first in the waiting thread: a share of
    the work the caller can take instead of idling); :meth:`cancel` asks ``interrupt`` (if given) to stop
    it and waits."""

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
        if self._thread.is_alive() and self._interrupt is not None:
            with contextlib.suppress(Exception):
                self._interrupt()
        self._thread.join()
