"""Hand the memory a finished step freed back to the system, so that the next step's peak is not added to
it: glibc keeps freed blocks of its heaps (numpy arrays below its mmap threshold, which rises to 32 MiB
once a large array was freed, and every array a worker thread allocated) and the process's resident
size does not fall until ``malloc_trim`` returns their pages. Elsewhere (macOS, musl, Windows) nothing is
done: those allocators return large blocks themselves or keep no such heaps. :func:`trimming` does the same
every fraction of a second through a block in which two threads allocate and free large arrays at once."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# sources of at most this many rows: the algorithm's arrays are a few MiB, and a full collection (tens of
# milliseconds with the package's modules loaded) would cost more than it frees
LARGE_ROWS = 100_000
# how often :func:`trimming` looks at the resident size: a burst of allocations outgrows it for at most this
TRIM_SECONDS = 0.1


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def release_freed(*, collect: bool = True, rows: int | None = None) -> bool:
    """Collect unreachable objects (``collect``), then return the C heap's free pages to the system (glibc
    ``malloc_trim(0)``, a few milliseconds); False where the allocator has no such call. collect False:
    the caller's freed objects went by reference counting, and a full collection (tens of milliseconds
    with the package's modules loaded) would find none of them. ``rows``: the size of the step whose
    memory went; at most :data:`LARGE_ROWS`, nothing is done (False)."""
    if rows is not None and rows <= LARGE_ROWS:
        return False
    if collect:
        gc.collect()
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


@dataclass
class Trims:
    """What a :func:`trimming` block did: ``count`` trims so far."""

    count: int = 0


# glibc's ``mallopt`` parameters (malloc.h): the free space at the heap's top kept rather than returned,
# and the size from which a block is mapped alone (and unmapped when freed); 32 MiB is glibc's most
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
KEEP_TRIM, KEEP_MMAP = 1 << 30, 32 << 20


def keep_freed() -> bool:
    """For the rest of this process's life, glibc keeps the blocks it frees (below 32 MiB) for the next
    allocations instead of returning their pages, each of which the next array would fault in again: for a
    short-lived process that allocates and frees the same sizes over and over (a forked helper), whose
    peak is then its largest working set. False where the allocator has no such setting."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(_M_TRIM_THRESHOLD, KEEP_TRIM) and libc.mallopt(_M_MMAP_THRESHOLD, KEEP_MMAP))


def resident_bytes() -> int | None:
    """The process's resident size (Linux ``/proc/self/statm``), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def trimming(above: int = 0, every: float = TRIM_SECONDS) -> Iterator[Trims]:
    """Within the block, a thread of its own looks every ``every`` seconds at the resident size and, while
    it is above ``above`` bytes (or cannot be read), returns the C heap's free pages to the system (glibc
    ``malloc_trim(0)``; the call leaves the interpreter lock). Where two threads allocate and free large
    arrays at once, the blocks one frees are often too small for the other's next array: the heaps grow
    while their free pages stay resident until the block's end. Trimmed, the resident size stays near
    what is in use. Only above ``above``: a trimmed page the heap hands out again is faulted in afresh, a
    cost paid on every trim while two threads churn through large arrays. Elsewhere than glibc nothing
    runs."""
    trims, libc = Trims(), _libc()
    if libc is None:
        yield trims
        return
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every):
            size = resident_bytes()
            if size is None or size > above:
                libc.malloc_trim(0)
                trims.count += 1

    thread = threading.Thread(target=run, name="ldiv-trim", daemon=True)
    thread.start()
    try:
        yield trims
    finally:
        stop.set()
        thread.join()
