"""DuckDB's memory setting read in bytes and bounded for a block (ldiv_db/db/duckdb/memory.py), and the
freed-memory release after an algorithm and through a block (ldiv_db/util/memory.py)."""

from __future__ import annotations

import threading
import time

import duckdb
import pytest

from ldiv_db.db.duckdb.memory import memory_bound, setting_bytes
from ldiv_db.util import memory
from ldiv_db.util.memory import release_freed, trimming


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("18.8 GiB", 18.8 * 2**30),
        ("512.0 MiB", 512 * 2**20),
        ("1GB", 10**9),
        ("976.5 KiB", 976.5 * 1024),
        ("0 bytes", 0.0),
        ("-1", float("inf")),
        ("lots", float("inf")),
    ],
)
def test_a_memory_setting_in_bytes(setting: str, expected: float) -> None:
    assert setting_bytes(setting) == pytest.approx(expected)


def _limit(con: duckdb.DuckDBPyConnection) -> str:
    return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])


def test_the_bound_lowers_a_higher_setting_for_the_block_only() -> None:
    con = duckdb.connect()
    con.execute("SET memory_limit = '2GiB'")
    with memory_bound(con, 256 * 2**20):
        assert _limit(con) == "256.0 MiB"
    assert _limit(con) == "2.0 GiB"
    con.execute("SET memory_limit = '100MiB'")
    with memory_bound(con, 256 * 2**20):
        assert _limit(con) == "100.0 MiB"
    assert _limit(con) == "100.0 MiB"


def test_memory_freed_by_a_step_goes_back_to_the_system() -> None:
    """A cycle holding a large buffer is unreachable but not freed until collected; release_freed
    collects it (and on glibc trims the heap)."""
    import gc
    import weakref

    class Holder:
        pass

    a, b = Holder(), Holder()
    a.other, b.other = b, a  # type: ignore[attr-defined]
    a.payload = bytearray(8 * 2**20)  # type: ignore[attr-defined]
    gone = weakref.ref(a)
    gc.disable()
    try:
        del a, b
        assert gone() is not None
        release_freed(collect=False)  # the trim alone: a cycle stays until collected
        assert gone() is not None
        release_freed()
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.skipif(memory._libc() is None, reason="no glibc malloc_trim here")
def test_trimming_trims_above_its_size_through_the_block_and_stops_at_its_end() -> None:
    size = memory.resident_bytes()
    assert size is not None and size > 0
    with trimming(every=0.005) as trims, trimming(above=2**62, every=0.005) as never:
        deadline = time.monotonic() + 10
        while trims.count < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert trims.count >= 3
    done = trims.count
    time.sleep(0.05)
    assert trims.count == done and never.count == 0
    assert not [t for t in threading.enumerate() if t.name == "ldiv-trim"]


def test_keep_freed_sets_glibcs_thresholds_in_the_process_that_calls_it() -> None:
    """Called in a process of its own (it changes the allocator for the rest of that process's life): on
    glibc both settings are taken; elsewhere it does nothing and says so."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    tree = str(Path(memory.__file__).resolve().parents[2])  # this package, whichever tree it is in
    done = subprocess.run(
        [sys.executable, "-c", "from ldiv_db.util.memory import keep_freed; print(keep_freed())"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": tree},
    )
    assert done.stdout.strip() == str(memory._libc() is not None and hasattr(memory._libc(), "mallopt"))
