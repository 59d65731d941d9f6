"""How a Spark statement runs and how its result reaches the driver (issue 52, "Spark under a small driver").

* **Bounded fetches** (:func:`fetch`, THE way a result reaches Python): a result is read with
  ``LIMIT fetch_rows + 1``; one of more than ``fetch_rows`` rows (``fetch_rows=N`` in the URL, default
  :data:`~ldiv_db.db.spark.session.FETCH_ROWS`) is refused, naming the statement, unless the caller
  declared it bulk (a result that grows with the table and that the algorithm needs in Python): that one is
  written to a work table by Spark, each row numbered, and read back in batches of at most ``fetch_rows``
  rows, so the driver never holds more than one batch of it.
* **Jobs** (:func:`job`): every statement runs in a job group of its own; a Ctrl-C (SIGINT) cancels that
  group from another thread (the interrupted thread's connection to the JVM is mid-call) and is raised as
  the interrupt (exit 130). A driver JVM out of heap exits (``-XX:+ExitOnOutOfMemoryError``,
  :mod:`ldiv_db.db.spark.session`), so no wait outlives it.
* **Failures** (:func:`spark_error`): the statement's name and the setting to change — driver memory, the
  result size limit, local disk — as :class:`~ldiv_db.errors.EngineResources` (exit 2), never a raw
  ``Py4JJavaError``.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import BadInput, EngineResources, LdivError, StorageError, interrupt_requested
from ..engine_errors import environment_error
from .session import driver_exit, first_line, forget_session, setting

if TYPE_CHECKING:
    from ...sqlgen.render import TableRef

T = TypeVar("T")
FETCH_NO = "ldiv_fetch_no"  # the row number a batched fetch adds (monotonically_increasing_id)
_PART_SHIFT = 33  # monotonically_increasing_id: the partition index above bit 33, the row below
# per thread (a second reader's statements run beside the connection's), the job group of the statement
# it runs now: sc, group, cancelled
_RUNNING: dict[int, dict[str, Any]] = {}
_OOM = ("outofmemoryerror", "java heap space", "gc overhead limit exceeded")
_RESULTS = ("taskresultlost", "maxresultsize", "total size of serialized results")
_LOST = ("py4jnetworkerror", "connectionrefusederror", "sparkcontext was shut down", "answer from java side")
TUNE_MEMORY = (
    "give the driver more memory: spark.driver.memory (now {mem}; in local mode the executors share it), "
    "e.g. spark://local[2]?warehouse=./wh&spark.driver.memory=4g; with more "
    "spark.sql.shuffle.partitions each task holds less"
)


# ------------------------------------------------------------------------------------------ jobs
@contextlib.contextmanager
def job(session: Any, name: str, fallback: Callable[[str, BaseException], BaseException]) -> Iterator[None]:
    """Run the block's Spark calls as the statement ``name``: one job group (of this thread's: a second
    reader's statements run in another), cancelled on Ctrl-C or by :func:`cancel_thread`; an error
    leaves as :func:`spark_error` (else ``fallback(name, exc)``). Nested blocks join the outer."""
    me = threading.get_ident()
    if me in _RUNNING:
        yield
        return
    sc = session.sparkContext
    group = f"ldiv_{uuid.uuid4().hex[:12]}"
    state = _RUNNING[me] = {"sc": sc, "group": group, "cancelled": False}
    previous = _cancel_on_sigint()
    try:
        sc.setJobGroup(group, name, True)
        yield
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt) or state["cancelled"] or interrupt_requested():
            if isinstance(exc, KeyboardInterrupt) or interrupt_requested():
                _cancel()  # Ctrl-C: every running group
            else:
                cancel_thread(me)  # this thread's statement alone was cancelled (its reader's interrupt)
            _drop_interrupted_connection(sc)
            raise KeyboardInterrupt from None
        if isinstance(exc, LdivError) or not isinstance(exc, Exception):
            raise
        mapped = spark_error(session, name, exc) or fallback(name, exc)
        if mapped is exc:
            raise
        raise mapped from None
    finally:
        _RUNNING.pop(me, None)
        if previous is not None:
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(signal.SIGINT, previous)


def _cancel_on_sigint() -> Any:
    """Wrap the SIGINT handler for the statement's time: cancel its job group, then the usual course
    (the handler before raises KeyboardInterrupt). Returns the handler to put back (None: unchanged)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        return None

    def cancel_then(signum: int, frame: Any) -> None:
        _cancel()
        previous(signum, frame)

    signal.signal(signal.SIGINT, cancel_then)
    return previous


def _drop_interrupted_connection(sc: Any) -> None:
    """The interrupted thread's connection to the JVM still owes it the answer to the interrupted call:
    closed, so the thread's next call (the clean-up after Ctrl-C) opens a new one instead of reading that
    answer as its own."""
    with contextlib.suppress(Exception):
        client = sc._gateway._gateway_client
        connection = client.get_thread_connection()
        if connection is not None:
            connection.socket.close()  # not connection.close(): it would ask the JVM, and log its failure
        client.thread_connection.connection = None


def _cancel() -> None:
    """Ctrl-C: cancel every running job group (the connection's and a second reader's)."""
    for ident in list(_RUNNING):
        cancel_thread(ident)


def cancel_thread(ident: int) -> None:
    """Cancel the job group the thread ``ident`` runs now, if any, from a thread of its own (never waited
    for: the JVM may not answer); its statement then raises KeyboardInterrupt in that thread."""
    state = _RUNNING.get(ident)
    if state is None or state["cancelled"]:
        return
    state["cancelled"] = True
    sc, group = state["sc"], state["group"]

    def run() -> None:
        with contextlib.suppress(Exception):
            sc.cancelJobGroup(group)

    threading.Thread(target=run, name="ldiv-spark-cancel", daemon=True).start()


def spark_error(session: Any, name: str, exc: BaseException) -> LdivError | None:
    """The error the user sees for Spark's ``exc`` raised by statement ``name``, or None when it is none
    of the resource or environment cases (the engine's own mapping then decides)."""
    mem = setting(session, "spark.driver.memory", "1g")
    low = f"{type(exc).__name__} {exc}".lower()
    # py4j's bare Py4JError (no Java exception with it) is a call the JVM never answered: as with a lost
    # connection, the JVM may be exiting (out of heap) and is given a moment to be reaped
    lost = any(p in low for p in _LOST) or type(exc).__name__ == "Py4JError"
    code = driver_exit(session, wait=5.0 if lost else 0.0)
    if code is not None:
        forget_session(session)
        why = "ran out of memory (Java heap space)" if code == 3 else f"stopped (exit status {code})"
        return EngineResources(
            f"the Spark driver (the JVM this process started) {why} during {name}; nothing was published",
            TUNE_MEMORY.format(mem=mem),
        )
    text = first_line(exc)
    if any(p in low for p in _OOM):
        return EngineResources(f"Spark ran out of memory during {name}: {text}", TUNE_MEMORY.format(mem=mem))
    if any(p in low for p in _RESULTS):
        return EngineResources(
            f"the results of {name}'s tasks did not fit in the Spark driver: {text}",
            TUNE_MEMORY.format(mem=mem) + "; spark.driver.maxResultSize bounds the results of one job",
        )
    env = environment_error(exc, setting(session, "spark.local.dir", "Spark's local directory"))
    if env is not None:
        return StorageError(f"{env.message} (Spark, during {name})", env.hint)
    if any(p in low for p in _LOST):
        return EngineResources(
            f"lost the Spark session during {name}: {text}",
            "check the Spark master (spark://HOST:PORT) and the driver's log; a local session's JVM may "
            "have been stopped",
        )
    return None


# ------------------------------------------------------------------------------------------ fetches
def fetch(
    db: Any,
    frame: Any,
    name: str,
    *,
    bulk: bool,
    convert: Callable[[Any], T],
    size: Callable[[T], int],
) -> list[T]:
    """THE fetch of a Spark result into Python: ``convert`` (a DataFrame to rows or pandas) applied to the
    whole result, or to each batch of a bulk one; a result over ``db.fetch_rows`` rows not declared
    ``bulk`` is refused (see the module docstring)."""
    bound = int(db.fetch_rows)
    first = convert(frame.limit(bound + 1))
    if size(first) <= bound:
        return [first]
    if not bulk:
        raise LdivError(
            f"query {name} returned more than {bound:,} rows, more than ldiv_db brings into the Spark "
            "driver at once (fetch_rows)",
            "this is a bug in ldiv_db (a result that grows with the table must be fetched in batches); "
            "please report it with the query name. Meanwhile a larger fetch_rows=N in the spark:// URL "
            "(with spark.driver.memory to match) lets it through",
        )
    return _batches(db, frame, bound, convert)


def _batches(db: Any, frame: Any, bound: int, convert: Callable[[Any], T]) -> list[T]:
    """The result written to a work table by Spark, each row numbered in the result's order, then read
    in batches of at most ``bound`` rows (one job each)."""
    from pyspark.sql import functions as F

    ref: TableRef = db.work_table(f"ldiv_fetch_{uuid.uuid4().hex[:8]}")
    target = db.spark_ref(ref)
    names = list(frame.columns)  # stored as c0, c1, ...: a Parquet column cannot have every name
    numbered = frame.toDF(*(f"c{i}" for i in range(len(names)))).withColumn(
        FETCH_NO, F.monotonically_increasing_id()
    )
    numbered.write.format("parquet").saveAsTable(target)
    try:
        table = db.spark.table(target)
        no = F.col(FETCH_NO)
        parts = table.groupBy(F.shiftright(no, _PART_SHIFT).alias("p")).count().orderBy("p").collect()
        out = []
        for lo, hi in batch_ranges([(int(p), int(n)) for p, n in parts], bound):
            out.append(convert(table.where((no >= lo) & (no <= hi)).orderBy(no).drop(FETCH_NO).toDF(*names)))
        db.queries += 2 + len(out)
        return out
    finally:
        db.drop_table(ref)


def batch_ranges(parts: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Inclusive ranges of ``monotonically_increasing_id`` values, in order, each holding at most ``size``
    rows, given each partition's index and row count (its ids are ``index << 33`` plus 0..count-1)."""
    out: list[tuple[int, int]] = []
    lo, taken, hi = -1, 0, -1
    for part, rows in sorted(parts):
        base, i = part << _PART_SHIFT, 0
        while i < rows:
            if lo < 0:
                lo, taken = base + i, 0
            step = min(size - taken, rows - i)
            i, taken = i + step, taken + step
            hi = base + i - 1
            if taken == size:
                out.append((lo, hi))
                lo = -1
    if lo >= 0:
        out.append((lo, hi))
    return out


def statement_error(name: str, exc: BaseException) -> LdivError:
    """A failed statement's error as the user reads it: a name Spark's catalog refuses, a missing table,
    the lost session, else the statement's name with Spark's own line."""
    text = first_line(exc)
    kind = type(exc).__name__
    if "INVALID_SCHEMA_OR_RELATION_NAME" in text:
        return BadInput(
            f"Spark: {name}: {text}",
            "Spark's catalog takes table and schema names of letters, digits and _ only: rename the "
            "table (column names may be anything)",
        )
    if "TABLE_OR_VIEW_NOT_FOUND" in text or "SCHEMA_NOT_FOUND" in text:
        return BadInput(f"Spark: {name}: {text}", "check the table's name (schema.table) in the catalog")
    if kind in ("Py4JNetworkError", "ConnectionRefusedError") or "SparkContext was shut down" in text:
        return BadInput(f"lost the Spark session during {name}: {text}", "check the Spark master")
    return LdivError(
        f"query {name} failed on Spark: {text}",
        "this is a bug in ldiv_db if the input passed validation; please report it with the query name",
    )
