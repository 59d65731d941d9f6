"""Hand the memory a finished step freed back to the system, so that the next step's peak is not added to
it: glibc keeps freed blocks of its heaps (numpy arrays below its mmap threshold, which rises to 32 MiB
once a large array was freed, and every array a worker thread allocated) and the process's resident
size does not fall until ``malloc_trim`` returns their pages. Elsewhere (macOS, musl, Windows) nothing is
done: those allocators return large blocks themselves or keep no such heaps."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from typing import Any

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
# blocks of at least this many bytes get pages of their own once :func:`map_large_blocks` ran: a per-row
# array of 1M rows is 4–8 MiB
MAPPED_BYTES = 2**20

# sources of at most this many rows: the algorithm's arrays are a few MiB, and a full collection (tens of
# milliseconds with the package's modules loaded) would cost more than it frees
LARGE_ROWS = 100_000


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def release_freed() -> bool:
    """Collect unreachable objects, then return the C heap's free pages to the system (glibc
    ``malloc_trim(0)``, a few milliseconds); False where the allocator has no such call."""
    gc.collect()
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def map_large_blocks(threshold: int = MAPPED_BYTES) -> bool:
    """From now on, for the rest of the process, give every block of at least ``threshold`` bytes pages of
    its own, unmapped when it is freed (glibc ``mallopt(M_MMAP_THRESHOLD)``, which also stops the threshold
    from rising): large arrays freed by one step, or by a worker thread, then never stay in a heap beneath
    the next step's. False where the allocator has no such call."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, threshold))
