"""Peak memory of the measuring process, for the benches that report it."""

from __future__ import annotations

import resource
from pathlib import Path


def own_peak_mib() -> float:
    """This process's peak resident memory in MiB: Linux ``VmHWM`` (``ru_maxrss`` can carry the parent's
    peak through fork and exec), ``ru_maxrss`` where /proc is absent."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except (OSError, ValueError):
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1)
