"""return_freed_memory hands the heap's free memory back: after many mid-sized arrays are freed (once
glibc has raised its threshold for mapping blocks apart, they come from the heap), the resident size
falls when it is called."""

from __future__ import annotations

import ctypes.util
import sys

import numpy as np
import pytest

from ldiv_db.algorithms.shared.memory import return_freed_memory


def _rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or ctypes.util.find_library("c") is None, reason="glibc on Linux"
)
def test_freed_heap_memory_goes_back() -> None:
    big = np.ones(24 * 2**20 // 8)  # mapped apart; freeing it raises glibc's threshold to 24 MiB
    del big
    blocks = [np.ones(8 * 2**20 // 8) for _ in range(40)]  # 320 MiB of 8 MiB blocks, now on the heap
    blocks.pop()  # the top block is trimmed by free itself; the others stay below it
    del blocks[::2]  # every other block freed: holes the heap cannot shrink over
    before = _rss_mib()
    return_freed_memory()
    after = _rss_mib()
    assert before - after >= 100, (before, after)
    del blocks


def test_it_is_harmless_to_call_anywhere() -> None:
    return_freed_memory()
    return_freed_memory()
