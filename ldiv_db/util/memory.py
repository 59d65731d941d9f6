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
