"""Giving freed memory back to the system between an algorithm's phases."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys


def return_freed_memory() -> None:
    """Ask the C allocator to hand the free parts of its heap back to the system (glibc's ``malloc_trim``).

    A search that allocates and frees many mid-sized arrays (l+-Optimize's sub-searches over merged cells)
    leaves the freed memory resident: glibc raises its threshold for mapping a block on its own each time
    such a block is freed (up to 32 MiB), so later arrays come from the heap and stay mapped after they go,
    and the next phase (the release's write) adds its own memory to that. A no-op without glibc."""
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # another C library (musl has no malloc_trim)
        return
    trim(0)
