"""DuckDB's buffer pool bounded for a run over a large source (:meth:`Database.threads_for`): an
algorithm's arrays live in the same process, and with DuckDB's default bound (80 % of the machine's
memory) the run's work tables, the written release and the verification's aggregates stayed resident
beside them (BSGI at 1M / 3M rows: bench/README.md, "BSGI at scale"). Above the bound DuckDB evicts
table blocks and spills work tables and operator state to its temporary directory instead.

While the algorithm works on its own arrays and issues no statement (:meth:`Database.holding_little`),
the bound drops to :data:`IDLE_MEMORY_LIMIT`: DuckDB writes its work tables' blocks out at once and the
process's resident size falls by them (BSGI's coded table and its copy by part, beside a part's
arrays); the next statement reads back what it needs (decision 0029)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import duckdb

RUN_MEMORY_LIMIT = 512 * 2**20  # bytes: DuckDB's memory_limit during a run over a large source
IDLE_MEMORY_LIMIT = 64 * 2**20  # bytes: the same while the algorithm issues no statement
_UNITS = {"": 1, "b": 1, "bytes": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}  # fmt: skip


def setting_bytes(setting: str) -> float:
    """A DuckDB memory setting ('18.8 GiB', '512.0 MiB', '1GB') in bytes; a spelling not known here
    counts as unbounded."""
    found = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", setting)
    unit = _UNITS.get(found.group(2).lower()) if found else None
    return float("inf") if found is None or unit is None else float(found.group(1)) * unit


@contextlib.contextmanager
def memory_bound(
    con: duckdb.DuckDBPyConnection, limit: int = RUN_MEMORY_LIMIT, *, best_effort: bool = False
) -> Iterator[None]:
    """Run the block with DuckDB's ``memory_limit`` at most ``limit`` bytes (a lower setting is kept),
    put back as it was afterwards. ``best_effort``: where DuckDB cannot evict down to the bound (blocks
    it may not write out), the block runs with the setting as it was."""
    before = str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
    if setting_bytes(before) <= limit:
        yield
        return
    try:
        con.execute("SET memory_limit = $limit", {"limit": f"{limit // 2**20} MiB"})
    except duckdb.Error:
        if not best_effort:
            raise
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(duckdb.Error):
            con.execute("SET memory_limit = $limit", {"limit": before})
