"""The command's Ctrl-C (SIGINT): a handler that raises KeyboardInterrupt in the command, except inside an
import (a native module interrupted while it initializes aborts the process), where the interrupt is
noted and re-sent until it lands outside; once the command has ended (:data:`ENDED`) a Ctrl-C changes
nothing. :mod:`ldiv_db.cli.main` installs :func:`on_sigint` and :func:`on_unraisable` for a command
and calls :func:`stop_asking` at its end."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

# the command has ended (returned or failed): a Ctrl-C from now on changes nothing
ENDED = {"command": False}


# seconds between the re-sent SIGINTs of a Ctrl-C that landed inside an import (raised once it is over)
RETRY = 0.02
# the thread re-sending a noted Ctrl-C and the event that stops it; whether a Ctrl-C was noted but not
# yet raised in the command; the re-sent SIGINTs, counted by the asking thread, and how many of them the
# handler has seen (each count has one writer, so neither loses an update)
_ASKER: dict[str, Any] = {"thread": None, "stop": threading.Event()}
_ASKING = threading.RLock()  # re-entrant: the handler may run again inside itself
_UNTAKEN = {"interrupt": False}
_SENT = {"sent": 0, "seen": 0}


def importing(frame: Any) -> bool:
    """Whether the interrupted code runs inside an import. A KeyboardInterrupt raised while a native
    extension initializes (DuckDB's module sets up its types by calling back into Python) aborts the whole
    process with a traceback instead of unwinding, so an interrupt there must wait for the import's end."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def on_sigint(signum: int, frame: Any) -> None:
    if ENDED["command"]:  # its outcome stands; the process is about to exit (no traceback from here)
        return
    # pending SIGINTs merge into one delivery: every re-send counted so far is this one
    sent = _SENT["sent"]
    resent, _SENT["seen"] = sent > _SENT["seen"], sent
    if resent and not _UNTAKEN["interrupt"]:
        return  # a re-send that left before the Ctrl-C it repeats was raised: that one stands
    from ..errors import note_interrupt

    note_interrupt()
    if importing(frame):
        ask_again()  # the signal is delivered to this handler again, outside the import by then
        return
    _UNTAKEN["interrupt"] = False
    raise KeyboardInterrupt


def resend() -> None:
    """SIGINT to the main thread, where Python runs its handler. Sent to the process from the asking
    thread, the kernel may hand it to that thread: the main thread, asleep in a system call (a wait, a
    sleep), would not wake to take it until the call returned on its own."""
    _SENT["sent"] += 1
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
    else:
        os.kill(os.getpid(), signal.SIGINT)


def _keep_asking(stop: threading.Event) -> None:
    """Re-send the noted Ctrl-C every RETRY seconds until the handler raises it. One re-send is not
    enough: landing after the main thread let go of the interpreter but before it entered a blocking
    system call (``time.sleep``), it is handled only when that call returns on its own."""
    while not stop.wait(RETRY):
        with _ASKING:  # decided with ask_again's check: a Ctrl-C noted now is not left to this thread
            if not _UNTAKEN["interrupt"]:
                _ASKER["thread"] = None
                return
        resend()


def ask_again() -> None:
    """Have the Ctrl-C re-sent until it is raised; :func:`stop_asking` ends that with the command."""
    with _ASKING:
        _UNTAKEN["interrupt"] = True
        if _ASKER["thread"] is not None:
            return
        _ASKER["stop"] = stop = threading.Event()
        _ASKER["thread"] = thread = threading.Thread(target=_keep_asking, args=(stop,), daemon=True)
    thread.start()


def stop_asking() -> bool:
    """Stop the re-sends (one already sent is handled by the ending handler) and say whether a Ctrl-C
    was noted that the command never took."""
    with _ASKING:
        thread, _ASKER["thread"] = _ASKER["thread"], None
        _ASKER["stop"].set()
    if thread is not None:
        thread.join()
    _SENT["seen"] = _SENT["sent"]
    untaken, _UNTAKEN["interrupt"] = _UNTAKEN["interrupt"], False
    return untaken


def on_unraisable(info: Any) -> None:
    """A Ctrl-C raised where Python cannot raise it (a weakref or finalizer callback run by the garbage
    collector) would be printed as "Exception ignored" and lost: it is asked for again shortly, outside
    the callback, unless the command has ended. Anything else goes to Python's own hook."""
    if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
        if not ENDED["command"]:
            ask_again()
        return
    sys.__unraisablehook__(info)
