"""Where a Spark command's time goes (issue 57 item 5): the session's start in its parts, then every call
the engine makes on Spark, by name, with its seconds and rows.

:func:`install` wraps, in this process only, the entry points through which :class:`SparkDatabase` talks
to Spark (statements by template name, fetches included; bookkeeping SQL; catalog calls; frames sent)
and the JVM's launch. Only the outermost call is counted (``rows`` inside ``one`` is one statement), so
the entries add up to the time spent waiting on Spark; the rest of a step is Python (the algorithm's
controller, rendering, translation). :func:`report` gives the totals.

The session's start is split into: ``jvm_py4j_s`` (spark-submit, the driver JVM, the py4j gateway),
``spark_session_s`` (SparkContext and SparkSession on that JVM), ``metastore_s`` (the first catalog call,
which starts the Hive client and its Derby metastore), ``migrations_s`` (the rest of the open-time rule:
reading ``ldiv.schema_migration`` and applying pending migrations). :func:`jvm_threads` splits the driver
JVM's CPU by thread (the JIT compilers, the py4j threads that plan statements and call the metastore, the
executor tasks, the collector).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Profile:
    calls: list[tuple[str, float, int]] = field(default_factory=list)  # (name, seconds, rows or -1)
    marks: dict[str, float] = field(default_factory=dict)
    depth: int = 0

    def by_name(self, calls: list[tuple[str, float, int]] | None = None) -> dict[str, list[Any]]:
        """name -> [statements, seconds, rows], largest seconds first."""
        out: dict[str, list[Any]] = {}
        for name, s, rows in self.calls if calls is None else calls:
            entry = out.setdefault(name, [0, 0.0, 0])
            entry[0] += 1
            entry[1] += s
            entry[2] += max(rows, 0)
        return {k: [n, round(s, 3), r] for k, (n, s, r) in sorted(out.items(), key=lambda kv: -kv[1][1])}


PROFILE = Profile()


def _rows_of(value: Any) -> int:
    if value is None:
        return -1
    if isinstance(value, dict):  # arrays(): columns by name
        return len(next(iter(value.values()))) if value else 0
    try:
        return len(value)
    except TypeError:
        return -1


def _wrap(cls: Any, method: str, label: Callable[..., str]) -> None:
    original = getattr(cls, method)

    @functools.wraps(original)
    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        if PROFILE.depth:
            return original(self, *args, **kwargs)
        PROFILE.depth += 1
        t0 = time.perf_counter()
        result: Any = None
        try:
            result = original(self, *args, **kwargs)
            return result
        finally:
            PROFILE.depth -= 1
            PROFILE.calls.append((label(*args), time.perf_counter() - t0, _rows_of(result)))

    setattr(cls, method, timed)


def install() -> Profile:
    """Wrap the Spark engine's entry points and the JVM's launch (once per process)."""
    import pyspark.context

    from ldiv_db.db.spark import engine, session

    if getattr(engine.SparkDatabase, "_profiled", False):
        return PROFILE
    engine.SparkDatabase._profiled = True  # type: ignore[attr-defined]
    for method in ("run", "rows", "records", "df", "arrays", "batches"):
        _wrap(engine.SparkDatabase, method, lambda q, *a, **k: q.name)
    _wrap(engine.SparkDatabase, "load_file", lambda q, *a, **k: f"load_file {q.name}")
    _wrap(engine.SparkDatabase, "execute_script", lambda name, *a, **k: f"script: {name}")
    _wrap(engine.SparkDatabase, "raw_rows", lambda sql, *a, **k: "bookkeeping: " + " ".join(sql.split())[:60])
    _wrap(engine.SparkDatabase, "insert_frame", lambda ref, *a, **k: f"insert_frame {ref.name}")
    for method in ("exists", "drop_table", "rename", "table_names", "work_table", "drop_work_tables"):
        _wrap(engine.SparkDatabase, method, lambda *a, _m=method, **k: f"engine.{_m}")
    _wrap(engine.SparkDatabase, "close", lambda *a, **k: "engine.close (drop work schema)")

    launch = pyspark.context.launch_gateway

    def timed_launch(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return launch(*args, **kwargs)
        finally:
            PROFILE.marks["jvm_py4j_s"] = time.perf_counter() - t0

    pyspark.context.launch_gateway = timed_launch
    start = session.session_for

    def timed_session(url: str) -> Any:
        t0 = time.perf_counter()
        try:
            return start(url)
        finally:
            PROFILE.marks.setdefault("session_for_s", time.perf_counter() - t0)

    engine.session_for = timed_session  # type: ignore[assignment]
    return PROFILE


def open_split(open_s: float, calls_during_open: list[tuple[str, float, int]]) -> dict[str, float]:
    """The session's start in its parts (see the module docstring), from the marks and the calls the open
    made (the first is the catalog's first call)."""
    jvm = PROFILE.marks.get("jvm_py4j_s", 0.0)
    session = PROFILE.marks.get("session_for_s", 0.0)
    first = calls_during_open[0][1] if calls_during_open else 0.0
    return {
        "jvm_py4j_s": round(jvm, 2),
        "spark_session_s": round(session - jvm, 2),
        "metastore_s": round(first, 2),
        "migrations_s": round(open_s - session - first, 2),
        "open_total_s": round(open_s, 2),
    }


def jvm_cpu_s(db: Any) -> float | None:
    """The driver JVM's CPU seconds so far (user + system), when this process started it."""
    import os

    try:
        pid = db.spark.sparkContext._gateway.proc.pid
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (AttributeError, OSError, ValueError, IndexError):
        return None


def jvm_threads(db: Any) -> dict[str, float]:
    """The driver JVM's CPU seconds so far by thread kind (Linux: each thread's name with its numbers
    dropped, ``C2 CompilerThread0`` -> ``C2 CompilerThread``), kinds under 0.3 s left out."""
    import os
    import re
    from pathlib import Path

    out: dict[str, float] = {}
    try:
        tasks = list(Path(f"/proc/{db.spark.sparkContext._gateway.proc.pid}/task").iterdir())
    except (AttributeError, OSError):
        return {}
    for task in tasks:
        try:  # a thread may end while it is read
            stat = (task / "stat").read_text()
            name = re.sub(r"[#\d-]+$", "", stat[stat.index("(") + 1 : stat.rindex(")")]).strip()
            fields = stat.rsplit(")", 1)[1].split()
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            continue
    return {k: round(v, 1) for k, v in sorted(out.items(), key=lambda kv: -kv[1]) if v >= 0.3}
