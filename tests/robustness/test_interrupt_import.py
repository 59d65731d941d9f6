"""A Ctrl-C that lands while the engine's module is being imported (the fault-injection suite's tp-new
kill at 0.41 s: DuckDB's native module, interrupted while it set up its types, aborted the process with a
traceback and exit −6). The command now lets the import finish, then stops as on any other Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The interrupt is sent from inside the import of ``duckdb`` (a finder asked for it first), so it lands
# in the import machinery every time, not by the luck of a timer; the command's handler is installed as
# ``ldiv`` installs it. After the import the script sleeps, so the deferred interrupt has time to land: it
# must wake the sleep (the re-sent signal goes to the main thread), long before the sleep ends.
# Where it was raised is read from the traceback (the script's line, argv[1] is the import's), not from
# what was printed before it: on a busy machine the deferred interrupt may land right after the import.
SCRIPT = textwrap.dedent(
    """
    import importlib.abc, os, signal, sys, time

    from ldiv_db.cli import sigint

    class Interrupt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "duckdb":
                os.kill(os.getpid(), signal.SIGINT)
            return None

    signal.signal(signal.SIGINT, sigint.on_sigint)
    sys.meta_path.insert(0, Interrupt())
    try:
        import duckdb
        time.sleep(SLEEP)
        print("not interrupted")
    except KeyboardInterrupt as exc:
        assert exc.__traceback__ is not None
        mod = sys.modules.get("duckdb")
        print("raised in the import:", exc.__traceback__.tb_lineno == int(sys.argv[1]))
        print("duckdb imported:", mod is not None and hasattr(mod, "connect"))
    """
)
IMPORT_LINE = SCRIPT.splitlines().index("    import duckdb") + 1
SLEEP = 60


def test_ctrl_c_inside_the_engine_import_waits_for_it(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT.replace("SLEEP", str(SLEEP)), str(IMPORT_LINE)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
        # a test runner may start its children with SIGINT ignored; a terminal does not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    # the re-sent interrupt woke the sleep: it did not wait for the sleep to end on its own
    assert time.monotonic() - started < SLEEP / 2
    assert "Traceback" not in proc.stderr
    # the import ran to its end, and the interrupt was raised after it, not lost
    assert proc.stdout.splitlines() == ["raised in the import: False", "duckdb imported: True"]


# The main thread blocks SIGINT after a second thread has started (which keeps it unblocked); the second
# thread re-sends the interrupt as the handler does. Sent to the main thread it stays pending there; sent
# to the process the kernel hands it to the unblocked thread, and a main thread asleep in a system call
# would not wake for it.
RESEND = textwrap.dedent(
    """
    import signal, threading
    from ldiv_db.cli import sigint

    signal.signal(signal.SIGINT, lambda *a: None)
    go, sent = threading.Event(), threading.Event()

    def resend():
        go.wait()
        try:
            sigint.resend()
        finally:
            sent.set()

    t = threading.Thread(target=resend)
    t.start()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    go.set()
    sent.wait()
    t.join()
    print("pending on the main thread:", signal.SIGINT in signal.sigpending())
    """
)


def _python(script: str, cwd: Path, *, sigint_default: bool = False) -> subprocess.CompletedProcess[str]:
    """``script`` run by a fresh interpreter importing this checkout; ``sigint_default``: with SIGINT's
    default action (a test runner may start its children with it ignored; a terminal does not)."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=cwd,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) if sigint_default else None,
    )


def test_a_re_sent_interrupt_goes_to_the_main_thread(tmp_path: Path) -> None:
    proc = _python(RESEND, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["pending on the main thread: True"]


# A re-sent interrupt can be lost: landing after the main thread let go of the interpreter but before it
# entered its sleep, it waits for the sleep to end. The first re-send is swallowed here to stand for that
# loss; the next ones must still come and wake the sleep. A re-send that reaches the handler after the
# interrupt was raised (it left the asking thread just before) must not raise it a second time.
LOST = textwrap.dedent(
    """
    import signal, time
    from ldiv_db.cli import sigint

    seen = []

    def swallow_first(signum, frame):
        seen.append(signum)
        if len(seen) > 1:
            sigint.on_sigint(signum, frame)

    signal.signal(signal.SIGINT, swallow_first)
    sigint.ask_again()
    started = time.monotonic()
    try:
        time.sleep(30)
        print("not interrupted")
    except KeyboardInterrupt:
        print("woken after a lost re-send:", len(seen) >= 2 and time.monotonic() - started < 10)
    sigint.resend()  # late: the interrupt it repeats was raised
    try:
        time.sleep(0.5)
        print("late re-send ignored: True")
    except KeyboardInterrupt:
        print("late re-send ignored: False")
    print("still asking:", sigint.stop_asking())
    """
)


def test_a_lost_re_send_is_sent_again_and_a_late_one_ignored(tmp_path: Path) -> None:
    proc = _python(LOST, tmp_path, sigint_default=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "woken after a lost re-send: True",
        "late re-send ignored: True",
        "still asking: False",
    ]
