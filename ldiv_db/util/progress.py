"""Progress on stderr for long work: silent for the first 2 seconds, then a bar (TTY) or a line every
few seconds (logs, CI). ``quiet`` turns it off."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(
        self, label: str, *, quiet: bool = False, stream: TextIO | None = None, delay: float = 2.0
    ) -> None:
        self.label = label
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.delay = delay
        self.t0 = time.perf_counter()
        self._last = 0.0
        self._shown = False
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def update(self, done: float, total: float | None = None, note: str = "") -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        elapsed = now - self.t0
        if elapsed < self.delay or now - self._last < (0.2 if self._tty else 5.0):
            return
        self._last = now
        if total:
            frac = min(1.0, done / total)
            bar = "#" * int(frac * 30)
            text = f"{self.label} [{bar:<30}] {frac * 100:5.1f}% {note} ({elapsed:.1f}s)"
        else:
            text = f"{self.label} {done:g} {note} ({elapsed:.1f}s)"
        if self._tty:
            self.stream.write("\r" + text[:160].ljust(100))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self._shown = True

    def done(self, note: str = "") -> None:
        if self.quiet or not self._shown:
            return
        elapsed = time.perf_counter() - self.t0
        end = "\n" if self._tty else ""
        self.stream.write(f"{end}{self.label} done {note} ({elapsed:.1f}s)\n")
        self.stream.flush()
