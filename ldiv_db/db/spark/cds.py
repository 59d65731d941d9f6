"""The class-data-sharing archive of a local driver JVM: the classes Spark, Hive and Derby load in every
process, mapped from a file made once instead of read from the jars, verified and parsed again each time
(decision 0036).

The archive is on by default (in the user's cache, ``$XDG_CACHE_HOME/ldiv_db/spark-cds`` or
``~/.cache/...``; ``LDIV_SPARK_CDS=DIR``: in that folder; ``LDIV_SPARK_CDS=off``: none), one file per Java
and Spark installation (:func:`archive_key`). The first local session without one claims it (a file made
with ``O_EXCL``, holding the claiming process's id: one writer at a time) and starts its JVM with
``-XX:ArchiveClassesAtExit`` on a partial name and a log of its own; the JVM writes the archive when it
exits and logs a line once it is written and closed. The claiming process waits for that exit before it
ends (:func:`finish_writing`): the JVM holds the local warehouse's Derby metastore until then, so a command
that returned while it still wrote made the next command on that warehouse fail. A partial file becomes
the archive only once that line is in its log (:func:`_publish`, the one place), since a JVM started on a
truncated archive dies of SIGBUS: a JVM killed while writing leaves only a partial name, never read, and
its claim is taken again at once when the claiming process is gone, else after :data:`_STALE_S`.
An archive that no longer matches its JVM or jars (an update in place) is refused by the JVM itself, which
then loads the classes as before: ``-Xlog:cds*=off`` keeps its notes off the command's output.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from ...util.cache import cache_folder

ENV = "LDIV_SPARK_CDS"
QUIET = "-Xlog:cds*=off"  # the JVM's notes on the archive (classes it skips, one it refuses) go to stdout
# a user's own sharing options: the archive is theirs to choose, ours is left out
_USERS_OWN = re.compile(r"-Xshare:|SharedArchiveFile|ArchiveClassesAtExit")
_DONE = "Written dynamic archive"  # HotSpot's line (cds+dynamic, info) once the archive is written and closed
_STALE_S = 1800.0  # a claim this old without that line is a writer that died
_KEEP_OTHERS = 2  # archives of other installations kept beside a new one (each ~210 MB)
_OLD_S = 30 * 86400.0  # and none older than this: an updated Java or Spark leaves its old archive behind
_WAIT_S = 600.0  # the longest the writing process waits for its JVM's dump before it kills it
WRITING = "ldiv: writing Spark's class archive once for this machine (~30 s)"


def cache_dir() -> Path | None:
    """Where the archives live (the user's cache; ``LDIV_SPARK_CDS=DIR``: there), or None
    (``LDIV_SPARK_CDS=off``)."""
    return cache_folder(ENV, "spark-cds")


def _java() -> Path | None:
    """The java binary spark-submit runs (``$JAVA_HOME/bin/java``, else the one on PATH)."""
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    return Path(found).resolve() if found and Path(found).exists() else None


def archive_key(jvm_options: list[str], hive: bool) -> str | None:
    """One archive per Java binary, Spark jar set, JVM options that shape it and catalog (a session with
    the Hive catalog loads its classes too): a hash of the java binary's path, size and time, every jar's
    name, size and time, ``jvm_options`` and ``hive``. None when either cannot be found."""
    java = _java()
    try:
        from pyspark.find_spark_home import _find_spark_home

        jars = Path(os.environ.get("SPARK_HOME") or _find_spark_home()) / "jars"
        stats = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in jars.glob("*.jar"))
    except (ImportError, OSError, SystemExit):  # _find_spark_home exits when it finds nothing
        return None
    if java is None or not stats:
        return None
    st = java.stat()
    text = repr((str(java), st.st_size, st.st_mtime_ns, stats, sorted(jvm_options), hive))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def archive_options(jvm_options: list[str], given: str, *, hive: bool) -> list[str]:
    """The JVM options that use the archive, or that make it when there is none and no other process is
    making it; none when the archive is off, unknown, or the user's ``spark.driver.extraJavaOptions``
    name sharing options of their own."""
    folder = cache_dir()
    key = archive_key(jvm_options, hive) if folder is not None and not _USERS_OWN.search(given) else None
    if folder is None or key is None or re.search(r"[\s'\"]", str(folder)):
        return []  # (Spark splits the JVM's options at spaces)
    final = folder / f"spark-{key}.jsa"
    with contextlib.suppress(OSError):
        for log in [] if final.is_file() else sorted(folder.glob(final.name + ".log-*")):
            if _written(log):
                _publish(log.with_name(log.name.replace(".log-", ".partial-")), final, log)
                break
        if final.is_file():
            _clear_stale(folder, final.name)  # the files of a writer whose claim was taken again
            return [f"-XX:SharedArchiveFile={final}", QUIET]
        claim = final.with_name(final.name + ".claim")
        if claim.exists() and time.time() - claim.stat().st_mtime > _STALE_S:
            _clear_stale(folder, final.name)
        elif claim.exists() and not _claimant_runs(claim):
            claim.unlink(missing_ok=True)  # its files stay: a JVM still writing may yet finish them
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)  # one writer at a time
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)
        token = uuid.uuid4().hex[:12]  # this writer's own files: a stale writer never writes them
        log, partial = (final.with_name(f"{final.name}.{kind}-{token}") for kind in ("log", "partial"))
        return [
            f"-XX:ArchiveClassesAtExit={partial}",
            f"-Xlog:cds+dynamic=info:file={log}::filecount=0",
            QUIET,
        ]
    return []  # another process is writing it, or there is no cache to write: classes loaded as before


def _claimant_runs(claim: Path) -> bool:
    """The process that wrote ``claim`` still runs (a claim without a readable id counts as running: it
    is being written, or is an older ldiv_db's, and goes after :data:`_STALE_S`)."""
    try:
        pid = int(claim.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process of that id: running
        return True
    return True


def writes_archive(options: list[str]) -> bool:
    """These JVM options (from :func:`archive_options`) make the archive."""
    return any(o.startswith("-XX:ArchiveClassesAtExit=") for o in options)


def finish_writing(proc: Any, options: list[str]) -> None:
    """In the process that claimed the archive, before it ends: end the driver JVM (its stdin closed, as
    at the process's exit) and wait while it writes the archive, saying so on stderr; then publish the
    archive, or, when the JVM did not log it written (it died, was killed, or took over
    :data:`_WAIT_S`), remove its files and claim so that the next session claims it again. A Ctrl-C
    during the wait kills the JVM: no half archive is ever published. ``proc`` is the JVM's ``Popen``."""
    partial = Path(next(o for o in options if writes_archive([o])).split("=", 1)[1])
    final = partial.with_name(partial.name.split(".partial-")[0])
    log = final.with_name(partial.name.replace(".partial-", ".log-"))
    if proc.poll() is None:
        print(WRITING, file=sys.stderr, flush=True)
        previous = _interruptible()
        try:
            with contextlib.suppress(OSError, AttributeError):
                proc.stdin.close()  # pyspark's gateway exits at the end of its stdin
            proc.wait(timeout=_WAIT_S)
        except (KeyboardInterrupt, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if previous is not None:
                with contextlib.suppress(ValueError, TypeError):
                    signal.signal(signal.SIGINT, previous)
    with contextlib.suppress(OSError):
        if _written(log):
            _publish(partial, final, log)
        else:
            for path in (partial, log, final.with_name(final.name + ".claim")):
                path.unlink(missing_ok=True)


def _interruptible() -> Any:
    """A Ctrl-C during the wait raises KeyboardInterrupt whatever handler the command left (the CLI's
    ignores one once its command has ended); the handler before, or None when this is not the main
    thread (which alone receives signals)."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.getsignal(signal.SIGINT)
        signal.signal(signal.SIGINT, interrupt)
    except ValueError:
        return None
    return previous


def _clear_stale(folder: Path, name: str) -> None:
    """A claim older than :data:`_STALE_S` (its writer died, failed or still runs a long job) and the
    files of writers that old: a writer still running writes its archive under a name no longer read."""
    for path in folder.glob(name + ".*"):
        if time.time() - path.stat().st_mtime > _STALE_S:
            path.unlink(missing_ok=True)


def _written(log: Path) -> bool:
    """The JVM's own line, logged after it wrote and closed the archive, is in its log."""
    try:
        return _DONE in log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _publish(partial: Path, final: Path, log: Path) -> None:
    """The one place a file becomes the archive: only after its JVM logged it written, synced to disk
    first, then renamed (atomic: a reader sees no archive or a whole one). A writer whose file is gone
    is done too: its log and claim go, and the next session claims the archive again."""
    done = (log, final.with_name(final.name + ".claim"))
    if not partial.is_file():
        for path in done:
            path.unlink(missing_ok=True)
        return
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, final)
    for path in done:
        path.unlink(missing_ok=True)
    _prune(final)


def _prune(final: Path) -> None:
    """The archives of other installations (an updated Java or Spark, another environment) beyond the
    newest :data:`_KEEP_OTHERS`, and any older than :data:`_OLD_S`: without this every update leaves
    ~210 MB in the cache for good. A JVM that maps a removed archive keeps its mapping; an installation
    that still runs makes its archive again once."""
    others = sorted(
        (p for p in final.parent.glob("spark-*.jsa") if p != final),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for rank, path in enumerate(others):
        if rank >= _KEEP_OTHERS or time.time() - path.stat().st_mtime > _OLD_S:
            path.unlink(missing_ok=True)
