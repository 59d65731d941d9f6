"""The Spark job rules that need no Spark (issue 52): the batches of a bulk fetch, the errors a failed
Spark job becomes, the URL's fetch bound, and DuckDB's zipped unnests in Spark SQL."""

from __future__ import annotations

import itertools
import signal
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlglot

from ldiv_db.db.spark import jobs as spark_jobs
from ldiv_db.db.spark.dialect import SPARK
from ldiv_db.db.spark.jobs import batch_ranges, spark_error
from ldiv_db.db.spark.session import FETCH_ROWS, fetch_rows_of, first_line, parse_url, session_for
from ldiv_db.errors import BadInput, EngineResources, StorageError
from ldiv_db.sqlgen.dialects import translate


def _ids(parts: list[tuple[int, int]]) -> list[int]:
    """Every monotonically_increasing_id of partitions with these row counts, in order (brute force)."""
    return [(p << 33) + i for p, n in sorted(parts) for i in range(n)]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 100])
@pytest.mark.parametrize(
    "parts", [[(0, 5)], [(0, 3), (1, 0), (2, 4)], [(0, 1), (1, 1), (3, 9)], [], [(2, 7), (0, 2)]]
)
def test_batches_cover_every_row_once_in_order_at_most_size_each(
    parts: list[tuple[int, int]], size: int
) -> None:
    ids = _ids(parts)
    ranges = batch_ranges(parts, size)
    chunks = [[i for i in ids if lo <= i <= hi] for lo, hi in ranges]
    assert list(itertools.chain.from_iterable(chunks)) == ids  # each row once, in the result's order
    assert all(0 < len(c) <= size for c in chunks)
    # as few batches as the bound allows: every batch but the last is full
    assert len(ranges) == -(-len(ids) // size)


class _Proc:
    def __init__(self, code: int | None) -> None:
        self.code = code

    def wait(self, timeout: float) -> int:
        if self.code is None:
            raise TimeoutError
        return self.code


class _Session:
    def __init__(self, code: int | None = None) -> None:
        self.sparkContext = type("SC", (), {"_gateway": type("G", (), {"proc": _Proc(code)})()})()


def test_a_driver_jvm_that_died_of_heap_names_the_statement_and_driver_memory() -> None:
    err = spark_error(_Session(3), "hilbert/coords.sql", ConnectionRefusedError("[Errno 111]"))
    assert isinstance(err, EngineResources) and err.exit_code == 2
    assert "hilbert/coords.sql" in err.message and "out of memory" in err.message
    assert err.hint and "spark.driver.memory" in err.hint


class _Exiting(_Proc):
    """A JVM that has exited once the caller waits ``after`` seconds for it (not yet reaped at once)."""

    def __init__(self, code: int, after: float) -> None:
        super().__init__(code)
        self.after = after

    def wait(self, timeout: float) -> int:
        if timeout < self.after:
            raise TimeoutError
        return super().wait(timeout)


class Py4JError(Exception):
    """py4j's bare error (its name is what the mapping reads): a call the JVM never answered."""


def test_a_call_the_exiting_jvm_never_answered_waits_for_its_exit() -> None:
    session = _Session()
    session.sparkContext._gateway.proc = _Exiting(3, after=0.5)  # type: ignore[attr-defined]
    err = spark_error(session, "probe/huge.sql", Py4JError("An error occurred while calling o157.getResult"))
    assert isinstance(err, EngineResources) and "out of memory" in err.message
    assert "probe/huge.sql" in err.message and err.hint and "spark.driver.memory" in err.hint


@pytest.mark.parametrize(
    ("text", "tune"),
    [
        ("Job aborted: java.lang.OutOfMemoryError: Java heap space", "spark.driver.memory"),
        ("Lost task 0.0 in stage 113.0: TaskResultLost (result lost from block manager)", "maxResultSize"),
        (
            "Total size of serialized results of 9 tasks (1030 MiB) is bigger than spark.driver.maxResultSize",
            "maxResultSize",
        ),
    ],
)
def test_resource_failures_name_the_statement_and_what_to_tune(text: str, tune: str) -> None:
    err = spark_error(_Session(), "tp/assign.sql", RuntimeError(text))
    assert isinstance(err, EngineResources) and err.exit_code == 2
    assert "tp/assign.sql" in err.message and err.hint and tune in err.hint


def test_a_full_local_disk_is_the_environment() -> None:
    err = spark_error(_Session(), "tp/rows.sql", OSError("java.io.IOException: No space left on device"))
    assert isinstance(err, StorageError) and "tp/rows.sql" in err.message


def test_another_failure_is_left_to_the_engine_mapping() -> None:
    assert spark_error(_Session(), "x.sql", RuntimeError("[UNRESOLVED_COLUMN] a column")) is None


def test_the_fetch_bound_is_a_url_option() -> None:
    assert fetch_rows_of("spark://local[2]") == FETCH_ROWS
    assert fetch_rows_of("spark://local[2]?warehouse=/w&fetch_rows=50") == 50
    assert parse_url("spark://local[2]?fetch_rows=50") == ("local[2]", {})  # not a Spark conf key
    with pytest.raises(BadInput, match="fetch_rows"):
        fetch_rows_of("spark://local[2]?fetch_rows=-3")


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own Ctrl-C handler for the test: a process started in the background (``cmd &``) inherits
    SIGINT ignored, and then ldiv_db rightly leaves it so."""
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, inherited)


@pytest.mark.usefixtures("python_sigint")
def test_a_ctrl_c_during_a_job_cancels_its_group_then_raises() -> None:
    cancelled: list[str] = []

    class SC:
        def setJobGroup(self, group: str, name: str, interrupt: bool) -> None:
            self.group = group

        def cancelJobGroup(self, group: str) -> None:
            cancelled.append(group)

    session: Any = type("S", (), {"sparkContext": SC()})()
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), spark_jobs.job(session, "tp/cells.sql", lambda n, e: e):
        assert signal.getsignal(signal.SIGINT) is not before  # the statement's own handler
        signal.raise_signal(signal.SIGINT)
    for t in threading.enumerate():
        if t.name == "ldiv-spark-cancel":
            t.join(5)
    assert cancelled == [session.sparkContext.group]
    assert signal.getsignal(signal.SIGINT) is before


def test_zipped_unnests_stay_zipped_on_spark() -> None:
    (sql,) = translate("SELECT unnest($a) AS x, 7 AS k, unnest($b) AS y", SPARK, frozenset({"a", "b"}))
    assert sql.count("EXPLODE") == 0 and "INLINE(ARRAYS_ZIP(:a, :b)) AS (x, y)" in sql
    assert sqlglot.parse_one(sql, read="spark") is not None


def test_a_java_failure_is_told_by_its_own_line() -> None:
    exc = RuntimeError(
        "An error occurred while calling None.org.apache.spark.api.java.JavaSparkContext.\n"
        ": java.lang.IllegalArgumentException: System memory 402653184 must be at least 471859200.\n"
        "\tat org.apache.spark.memory.UnifiedMemoryManager$.getMaxMemory(UnifiedMemoryManager.scala:1)"
    )
    assert (
        first_line(exc)
        == "java.lang.IllegalArgumentException: System memory 402653184 must be at least 471859200."
    )
    assert first_line(RuntimeError("plain\nsecond")) == "plain"


def test_a_local_session_without_a_warehouse_is_refused_before_spark_starts(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Spark would write the tables under ./spark-warehouse and forget them when the command ends
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BadInput, match="names no warehouse") as caught:
        session_for("spark://local[2]?spark.sql.shuffle.partitions=2")
    with pytest.raises(BadInput, match="names no warehouse"):  # the conf key itself, empty
        session_for("spark://local[2]?spark.sql.warehouse.dir=")
    assert caught.value.hint and "warehouse=" in caught.value.hint
    assert list(tmp_path.iterdir()) == []  # nothing written, no JVM started


@pytest.mark.parametrize("url", ["spark://local[2]?warehouse=", "spark://local[2]?warehouse=%20"])
def test_an_empty_warehouse_is_refused(url: str) -> None:
    # an empty path is the current directory: the tables would be written among its files
    with pytest.raises(BadInput, match="names no folder"):
        parse_url(url)


def test_the_cli_refuses_a_local_session_without_a_warehouse(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from ldiv_db.cli.main import main

    monkeypatch.chdir(tmp_path)
    code = main(
        ["check", "spark://local[2]", "--table", "adult", "--qi", "age", "--sa", "occupation", "--l", "2"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "names no warehouse" in err and "Traceback" not in err
    assert not (tmp_path / "spark-warehouse").exists()


def test_each_threads_statement_is_a_job_group_of_its_own_cancelled_alone() -> None:
    # a second reader's statements run beside the connection's (SparkDatabase.side_reader)
    cancelled: list[str] = []
    groups: dict[str, str] = {}

    class SC:
        def setJobGroup(self, group: str, name: str, interrupt: bool) -> None:
            groups[name] = group

        def cancelJobGroup(self, group: str) -> None:
            cancelled.append(group)

    session: Any = type("S", (), {"sparkContext": SC()})()
    inside, leave = threading.Event(), threading.Event()
    side: dict[str, Any] = {}

    def beside() -> None:
        side["ident"] = threading.get_ident()
        try:
            with spark_jobs.job(session, "metrics/domain.sql", lambda n, e: e):
                inside.set()
                leave.wait(10)
                raise RuntimeError("the cancelled job's failure")
        except BaseException as exc:  # the test reads what the thread raised
            side["raised"] = exc

    thread = threading.Thread(target=beside)
    thread.start()
    assert inside.wait(10)
    with spark_jobs.job(session, "tp/cells.sql", lambda n, e: e):  # this thread's own group meanwhile
        assert len(spark_jobs._RUNNING) == 2
        spark_jobs.cancel_thread(side["ident"])
        leave.set()  # the reader's cancelled statement fails while this one still runs
        thread.join(10)
    for t in threading.enumerate():
        if t.name == "ldiv-spark-cancel":
            t.join(5)
    assert cancelled == [groups["metrics/domain.sql"]] != [groups["tp/cells.sql"]]
    assert isinstance(side["raised"], KeyboardInterrupt) and spark_jobs._RUNNING == {}
