"""The process's Spark sessions: ``spark://`` URLs, the conf every session gets, and the driver JVM.

``DB`` is ``spark://local[N]?warehouse=PATH`` (a local session in this process; a local session needs
its warehouse) or ``spark://HOST:PORT`` (a standalone master), with options after ``?``: ``warehouse=PATH``,
``fetch_rows=N`` (the most rows one fetch brings into the driver: :mod:`ldiv_db.db.spark.jobs`) and any
Spark conf key.

The driver JVM is started with ``-XX:+ExitOnOutOfMemoryError``: a JVM out of heap otherwise keeps its
sockets open with the threads that would answer them dead, and the ``ldiv`` process waits for good; a
JVM that exits closes them, the wait ends at once, and :func:`driver_exit` tells why. A local master's
JVM also gets :data:`LOCAL_JVM` (decision 0032) and the class-data-sharing archive of :mod:`.cds`
(decision 0036): the process whose JVM writes it waits for that JVM at its exit.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import re
import signal
import threading
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ...errors import BadInput, LdivError
from ..urls import is_spark_url
from . import cds

SCHEME = "spark://"
_SESSIONS: dict[str, Any] = {}
# starts under way in another thread (start_early): URL -> the driver JVMs that ran before it; and their failures
_EARLY: dict[str, set[int]] = {}
_EARLY_FAILED: dict[str, LdivError] = {}
_EARLY_LOCK = threading.Lock()  # not held during a start: abandon_early must not wait for one
_SETTINGS: dict[int, dict[str, str]] = {}
_LOCK = threading.Lock()
DEFAULTS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.sql.legacy.createHiveTableByDefault": "false",
    "spark.sql.ansi.enabled": "false",
    "spark.sql.adaptive.enabled": "true",  # small shuffles coalesced into fewer tasks
    "spark.driver.memory": "1g",
    # a bounded fetch (LIMIT n + 1) reads every partition in one job, not 1, then 4, then 16 of them
    "spark.sql.limit.initialNumPartitions": "100000",
}
# the most rows one fetch brings into the driver (``fetch_rows=N`` in the URL): a larger result is
# refused unless the caller declared it bulk, which is then fetched in batches of this many rows
FETCH_ROWS = 200_000
_JVM_FLAGS = "-XX:+ExitOnOutOfMemoryError"
# A local master's driver JVM (which runs the tasks too): the client compiler only and the serial
# collector. A command's JVM lives for one command, and its optimizing compiler's work (half the JVM's
# CPU on Adult) does not pay back within it; docs/decisions/0032-spark-session-and-statements.md.
# The client compiler alone gets a 48 MB code cache, which a Mondrian run on Adult fills: the JVM then
# stops compiling and dies at its next method-handle intrinsic (exit 50); 240 MB is the JVM's default
# with both compilers (decision 0036).
LOCAL_JVM = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=240m")
# A local driver JVM's language: ``String.toLowerCase()`` (Spark's case mapping without ICU) maps I and
# İ by the default locale's rules, which in Turkish or Azeri differ from ICU's root rules
LOCAL_LOCALE = "-Duser.language=en"
_LOCAL = re.compile(r"local(?:\[(\d+|\*)(?:,\s*\d+)?\])?")
_GC_CHOICE = re.compile(r"-XX:\+Use\w*GC\b")


def local_defaults(master: str) -> dict[str, str]:
    """A local master's shuffle partitions: one per core it runs tasks on (``local[N]``: N, ``local[*]``:
    the machine's), not 4 or Spark's 200, since every task costs start-up time on rows that fit a core.
    And ``lower``/``upper`` by the JVM's case mapping instead of ICU's: the first ICU case mapping of a
    JVM loads ICU's data, seconds of a command's JVM, and ldiv_db's templates only compare lowered
    names (ASCII in Spark's catalog) and test values against ASCII words, where both give the same
    answer (decision 0032, "Round 8"); the JVM's mapping follows its locale, so the driver's is pinned
    (:data:`LOCAL_LOCALE`)."""
    m = _LOCAL.fullmatch(master)
    if m is None:
        return {}
    cores = m.group(1) or "1"
    n = (os.cpu_count() or 1) if cores == "*" else max(int(cores), 1)
    return {"spark.sql.shuffle.partitions": str(n), "spark.sql.icu.caseMappings.enabled": "false"}


def metastore_defaults(db_path: Path) -> dict[str, str]:
    """The embedded Hive metastore of a session with a warehouse: its Derby database beside the warehouse,
    and no direct SQL. Hive's direct SQL only speeds up partition and column-statistics listings, which
    the tables ldiv_db writes never ask for (a user's partitioned table is listed through JDO instead,
    with the same answer), yet setting it up runs probe queries and loads the metadata of several model
    classes at every start. And a new table's or schema's directory not given its parent's group and
    mode afterwards (Hive 2's inherited permissions, which Hive 3 dropped): on a local warehouse without
    Hadoop's native library each such copy runs ``ls`` and ``chmod`` processes from the driver JVM, three
    or more a directory, while the directory already has the mode and group the parent's would give it
    unless the user changed the parent's, whose own mode still governs access through it (decision 0032,
    "Round 17"). A value in the URL wins."""
    return {
        "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={db_path};create=true",
        "spark.hadoop.hive.metastore.try.direct.sql": "false",
        "spark.hadoop.hive.warehouse.subdir.inherit.perms": "false",
    }


def local_jvm(master: str) -> list[str]:
    """:data:`LOCAL_JVM` for a local master (``local``, ``local[N]``, ``local[*]``), nothing for a cluster's."""
    return list(LOCAL_JVM) if _LOCAL.fullmatch(master) else []


def java_options(ours: list[str], given: str) -> str:
    """The driver JVM's options: ldiv_db's (the quiet log, Derby's log file, :func:`local_jvm`), then the
    user's (``spark.driver.extraJavaOptions``), then the exit on out of heap. An option given twice takes
    the later value, so the user's wins (``-XX:TieredStopAtLevel=4`` brings the optimizing compiler
    back); a collector the user names replaces ldiv_db's (the JVM refuses two)."""
    if _GC_CHOICE.search(given):
        ours = [o for o in ours if not _GC_CHOICE.fullmatch(o)]
    return " ".join(o for o in [*ours, given.strip(), _JVM_FLAGS] if o)


def _options(url: str) -> tuple[str, list[tuple[str, str]]]:
    if not is_spark_url(url):
        raise BadInput(f"{url} is not a spark:// URL", "write spark://local[2] or spark://HOST:PORT")
    where, _, query = url[len(SCHEME) :].partition("?")
    if not where:
        raise BadInput(f"{url} names no master", "write spark://local[2] or spark://HOST:PORT")
    return where, _query_options(query)


def _query_options(query: str) -> list[tuple[str, str]]:
    """The ``key=value`` options after ``?``, percent-decoded. A ``+`` stays a plus (not a form's space):
    JVM flags carry one (``-XX:+UseG1GC``) and a warehouse path may; a space is written ``%20``."""
    out = []
    for part in query.split("&"):
        if part:
            key, _, value = part.partition("=")
            out.append((unquote(key), unquote(value)))
    return out


def parse_url(url: str) -> tuple[str, dict[str, str]]:
    """``spark://local[2]?warehouse=/w`` -> (``local[2]``, {spark.sql.warehouse.dir: /w, ...})."""
    where, options = _options(url)
    master = where if where.startswith("local") else SCHEME + where
    conf: dict[str, str] = {}
    for key, value in options:
        if key == "warehouse":
            if not value.strip():  # Path("") is the current directory: the tables would land among its files
                raise BadInput(
                    f"warehouse= in {url} names no folder", "write warehouse=PATH, e.g. warehouse=./wh"
                )
            conf["spark.sql.warehouse.dir"] = str(Path(value).resolve())
        elif key.startswith("spark."):
            conf[key] = value
        elif key != "fetch_rows":
            raise BadInput(
                f"unknown option {key!r} in {url}",
                "options are warehouse=PATH, fetch_rows=N and Spark conf keys "
                "(spark.sql.shuffle.partitions=8)",
            )
    return master, conf


def fetch_rows_of(url: str) -> int:
    """The URL's ``fetch_rows=N`` (default :data:`FETCH_ROWS`)."""
    given = [v for k, v in _options(url)[1] if k == "fetch_rows"]
    if not given:
        return FETCH_ROWS
    if not given[-1].isdigit() or int(given[-1]) < 1:
        raise BadInput(
            f"fetch_rows={given[-1]} in {url} is not a positive integer", "write fetch_rows=200000"
        )
    return int(given[-1])


def _checked(url: str) -> tuple[str, dict[str, str]]:
    """The URL's master and conf (:func:`parse_url`); a local master without a warehouse refused."""
    master, conf = parse_url(url)
    if _LOCAL.fullmatch(master) and not conf.get("spark.sql.warehouse.dir", "").strip():
        # without one Spark writes the tables under ./spark-warehouse and forgets them at the command's
        # end: the next command neither sees them nor can create its own there
        raise BadInput(
            f"{url} names no warehouse: a local session keeps its tables in a warehouse folder",
            f"add warehouse=PATH: spark://{master}?warehouse=./wh (its metastore is kept beside it as "
            "wh_metastore, so later commands see the same tables)",
        )
    return master, conf


def start_early(url: str, cancelled: threading.Event) -> None:
    """Start the session for ``url`` here, in a thread of the caller's (the command line's, while the
    command imports and checks what it needs: the driver JVM's start is mostly waiting). The command's
    own :func:`session_for` then waits for this start under the lock, or raises the error it met. Not
    once ``cancelled`` is set (the command ended first, :func:`abandon_early`); a URL :func:`session_for`
    would refuse is left to the command, which says so itself."""
    try:
        _checked(url)
    except LdivError:
        return
    with _EARLY_LOCK:
        if cancelled.is_set() or url in _SESSIONS or url in _EARLY:
            return
        _EARLY[url] = _driver_jvms()
    try:
        session_for(url)
    except LdivError as exc:  # e.g. no Java: the command's open raises it, not a second start
        _EARLY_FAILED[url] = exc
    except Exception:  # anything else: the command's own start meets it and reports it
        pass
    finally:
        with _EARLY_LOCK:
            _EARLY.pop(url, None)


def abandon_early() -> None:
    """At a command's end, after it set the start's ``cancelled``: a start of :func:`start_early` still
    under way was for a command that never opened its database (it failed first), and the driver JVM it
    launched is killed, as a Ctrl-C during a start kills it. (A start that registered but has not
    launched its JVM yet launches one that exits by itself once up: its parent is gone.)"""
    with _EARLY_LOCK:
        for url, before in _EARLY.items():
            if url not in _SESSIONS:
                _kill_new_jvms(before)


def session_for(url: str) -> Any:
    """The process's Spark session for ``url`` (started once; pyspark keeps one active session)."""
    master, conf = _checked(url)
    with _LOCK:
        if url in _SESSIONS:
            return _SESSIONS[url]
        failed = _EARLY_FAILED.pop(url, None)
        if failed is not None:  # the early start's failure (start_early): the same start would fail again
            raise failed
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise BadInput(
                "DB names a Spark session but pyspark is not installed",
                "pip install 'ldiv_db[spark]' (Spark also needs Java 17: openjdk-17-jre-headless)",
            ) from None
        settings = {**DEFAULTS, **local_defaults(master), **conf}
        builder = SparkSession.builder.master(master).appName("ldiv_db")
        warehouse = settings.get("spark.sql.warehouse.dir")
        java_opts = [f"-Dlog4j2.configurationFile={Path(__file__).with_name('spark_log4j2.properties')}"]
        local = local_jvm(master)
        java_opts += [*local, LOCAL_LOCALE] if local else []
        if warehouse:
            db_path = Path(warehouse).parent / (Path(warehouse).name + "_metastore")
            for key, value in metastore_defaults(db_path).items():
                settings.setdefault(key, value)
            java_opts.append(f"-Dderby.stream.error.file={db_path}.derby.log")
            builder = builder.enableHiveSupport()
        key = "spark.driver.extraJavaOptions"
        sharing = cds.archive_options(local, settings.get(key, ""), hive=bool(warehouse)) if local else []
        settings[key] = java_options(java_opts + sharing, settings.get(key, ""))
        for key, value in settings.items():
            builder = builder.config(key, value)
        handler = signal.getsignal(signal.SIGINT)
        _quiet_py4j()  # before the first call on the JVM: a Ctrl-C may come during the start already
        _quiet_pandas_version()
        try:
            session = _start(builder, handler)
        except Exception as exc:
            raise BadInput(
                f"cannot start Spark for {url}: {first_line(exc)}",
                "check that Java 17 is installed (JAVA_HOME) and the master is reachable",
            ) from None
        finally:
            _keep_handler(handler)
        session.sparkContext.setLogLevel("FATAL")
        proc = getattr(getattr(session.sparkContext, "_gateway", None), "proc", None)
        if cds.writes_archive(sharing) and proc is not None:
            # the JVM writes the archive as it exits and holds the warehouse's metastore until then:
            # this process waits for it, so the next command finds the metastore free (decision 0036)
            atexit.register(cds.finish_writing, proc, sharing)
        _SESSIONS[url] = session
        _SETTINGS[id(session)] = settings
        return session


def _start(builder: Any, handler: Any) -> Any:
    """``builder.getOrCreate()``; a Ctrl-C meanwhile first kills the driver JVM this start launched (a JVM
    interrupted before its gateway is up would outlive this process, printing its own stack trace),
    then goes on as the interrupt."""
    before = _driver_jvms()

    def kill_then(signum: int, frame: Any) -> None:
        _kill_new_jvms(before)
        handler(signum, frame)
        raise KeyboardInterrupt  # the start cannot go on without its JVM, whatever the handler did

    wrapped = threading.current_thread() is threading.main_thread() and callable(handler)
    if wrapped:
        signal.signal(signal.SIGINT, kill_then)
    try:
        return builder.getOrCreate()
    except KeyboardInterrupt:
        _kill_new_jvms(before)
        raise
    finally:
        if wrapped and signal.getsignal(signal.SIGINT) is kill_then:
            signal.signal(signal.SIGINT, handler)


def _driver_jvms() -> set[int]:
    """The Spark driver JVMs this process has started and that still run (Linux: from /proc)."""
    me, found = os.getpid(), set()
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) != me:
                    continue
                cmdline = (entry / "cmdline").read_bytes()  # spark-submit's script, then the JVM
                if b"org.apache.spark.deploy.SparkSubmit" in cmdline or b"pyspark-shell" in cmdline:
                    found.add(int(entry.name))
    return found


def _kill_new_jvms(before: set[int]) -> None:
    for pid in _driver_jvms() - before:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)  # nothing written yet: the metastore opens at the first catalog call


def _quiet_pandas_version() -> None:
    """pyspark warns at the start and at each conversion that it does not yet fully support the installed
    pandas (3.x); ldiv_db's Spark tests run on that pandas, and a command's user can do nothing about the
    warning, so it is not shown."""
    warnings.filterwarnings(
        "ignore", message="PySpark does not yet fully support pandas", category=FutureWarning
    )


def _quiet_py4j() -> None:
    if not any(isinstance(f, _Py4jQuiet) for f in logging.getLogger().filters):
        logging.getLogger().addFilter(_Py4jQuiet())  # py4j's logging.exception(...) calls
        logging.getLogger("py4j").setLevel(logging.CRITICAL)  # its own loggers (and children)


class _Py4jQuiet(logging.Filter):
    """py4j logs a Ctrl-C during a call (and the broken connection after it) with a traceback on the root
    logger; the command reports the interrupt itself (exit 130)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return f"{os.sep}py4j{os.sep}" not in record.pathname


def _keep_handler(handler: Any) -> None:
    """pyspark installs a SIGINT handler of its own that calls the JVM from the interrupted thread (whose
    connection is mid-call): the handler before it is put back; :func:`ldiv_db.db.spark.jobs.job`
    cancels the running job on Ctrl-C instead."""
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is not handler
    ):
        with contextlib.suppress(ValueError, TypeError):
            signal.signal(signal.SIGINT, handler)


def stop_sessions() -> None:
    with _LOCK:
        for session in _SESSIONS.values():
            with contextlib.suppress(Exception):
                session.stop()
        _SESSIONS.clear()


def forget_session(session: Any) -> None:
    """A session whose driver JVM is gone: the next open starts another."""
    with _LOCK:
        for url in [u for u, s in _SESSIONS.items() if s is session]:
            del _SESSIONS[url]


def driver_exit(session: Any, wait: float = 0.0) -> int | None:
    """The exit status of the session's driver JVM when this process started it and it has ended (within
    ``wait`` seconds: a JVM whose connections just closed may not be reaped yet), else None (running, or
    not ours to see)."""
    proc = getattr(getattr(session.sparkContext, "_gateway", None), "proc", None)
    if proc is None or not callable(getattr(proc, "wait", None)):
        return None
    try:
        return int(proc.wait(timeout=wait))
    except Exception:  # subprocess.TimeoutExpired: still running
        return None


def setting(session: Any, key: str, default: str = "") -> str:
    """A conf key as this process started the session with it (read without asking the JVM, which may
    not answer)."""
    return _SETTINGS.get(id(session), {}).get(key, default)


_JAVA_CAUSE = re.compile(r"^(?:Caused by: |: )?([\w.$]+(?:Exception|Error): .+)$", re.MULTILINE)


def first_line(exc: BaseException) -> str:
    """The line of an error that says what happened: a Java error's own line (a Py4JJavaError's first
    line only names the call), else the first line."""
    text = str(exc).strip()
    lines = text.splitlines()
    line = lines[0] if lines else type(exc).__name__
    if line.startswith("An error occurred while calling"):
        cause = _JAVA_CAUSE.search(text)
        line = cause.group(1) if cause else line
    return line.split("; line ")[0][:400]
