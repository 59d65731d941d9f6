"""The class-data-sharing archive of a local Spark driver JVM (ldiv_db/db/spark/cds.py): one writer at a
time, a partial file becomes the archive only once its JVM logged it written, and never otherwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ldiv_db.db.spark import cds

KEY = "0123456789abcdef"
LINE = "[76.573s][info][cds,dynamic] Written dynamic archive 0x0000000800bc7000 - 0x000000080d795178\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cds.ENV, str(tmp_path / "cds"))
    monkeypatch.setattr(cds, "archive_key", lambda options, hive: KEY)
    return tmp_path / "cds"


def _option(options: list[str], name: str) -> Path:
    sep = "file=" if "file" in name else "="
    found = [o.split(sep, 1)[1].split("::")[0] for o in options if o.startswith(name)]
    assert len(found) == 1, options
    return Path(found[0])


def test_first_session_claims_and_writes_others_wait(folder: Path) -> None:
    first = cds.archive_options(["-XX:TieredStopAtLevel=1"], "", hive=True)
    partial = _option(first, "-XX:ArchiveClassesAtExit")
    log = _option(first, "-Xlog:cds+dynamic=info:file")
    assert partial.parent == folder and cds.QUIET in first
    assert (folder / f"spark-{KEY}.jsa.claim").exists()
    # while the first JVM runs (no line in its log yet): no archive to read, no second writer
    log.write_text("[1.0s][info][cds,dynamic] Copying 19771 klasses\n")
    partial.write_bytes(b"half")
    assert cds.archive_options([], "", hive=True) == []
    assert not (folder / f"spark-{KEY}.jsa").exists()


def test_archive_is_published_only_after_its_line(folder: Path) -> None:
    first = cds.archive_options([], "", hive=True)
    partial, log = _option(first, "-XX:ArchiveClassesAtExit"), _option(first, "-Xlog:cds+dynamic=info:file")
    partial.write_bytes(b"whole archive")
    log.write_text(LINE)
    then = cds.archive_options([], "", hive=True)
    final = folder / f"spark-{KEY}.jsa"
    assert then == [f"-XX:SharedArchiveFile={final}", cds.QUIET]
    assert final.read_bytes() == b"whole archive"
    assert sorted(p.name for p in folder.iterdir()) == [final.name]  # claim, log and partial gone


def test_stale_claim_is_taken_again_and_its_partial_never_read(folder: Path) -> None:
    first = cds.archive_options([], "", hive=True)
    partial = _option(first, "-XX:ArchiveClassesAtExit")
    partial.write_bytes(b"killed while writing")
    old = time.time() - cds._STALE_S - 60
    for path in folder.iterdir():
        os.utime(path, (old, old))
    again = cds.archive_options([], "", hive=True)
    assert _option(again, "-XX:ArchiveClassesAtExit") != partial  # a new writer, files of its own
    assert not partial.exists() and not (folder / f"spark-{KEY}.jsa").exists()


def test_files_of_an_old_writer_go_once_there_is_an_archive(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / f"spark-{KEY}.jsa").write_bytes(b"archive")
    orphan = folder / f"spark-{KEY}.jsa.partial-0ld"  # written after its claim was taken again
    orphan.write_bytes(b"never read")
    old = time.time() - cds._STALE_S - 60
    os.utime(orphan, (old, old))
    assert cds.archive_options([], "", hive=True)[0].startswith("-XX:SharedArchiveFile=")
    assert sorted(p.name for p in folder.iterdir()) == [f"spark-{KEY}.jsa"]


@pytest.mark.parametrize(
    ("env", "given"),
    [("off", ""), (None, "-Xshare:off"), (None, "-XX:SharedArchiveFile=/mine.jsa"), ("/a b/cds", "")],
)
def test_no_archive_options(
    folder: Path, monkeypatch: pytest.MonkeyPatch, env: str | None, given: str
) -> None:
    if env is not None:
        monkeypatch.setenv(cds.ENV, env)
    assert cds.archive_options([], given, hive=True) == []
    assert not folder.exists()


def test_key_follows_the_options_and_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspark")
    if cds._java() is None:
        pytest.skip("no java binary")
    a = cds.archive_key(["-XX:TieredStopAtLevel=1"], True)
    assert a is not None and a == cds.archive_key(["-XX:TieredStopAtLevel=1"], True)
    assert a != cds.archive_key(["-XX:TieredStopAtLevel=1"], False)
    assert a != cds.archive_key(["-XX:TieredStopAtLevel=4"], True)


def test_a_written_log_without_its_file_does_not_block_the_next_writer(folder: Path) -> None:
    first = cds.archive_options([], "", hive=True)
    _option(first, "-Xlog:cds+dynamic=info:file").write_text(LINE)  # its partial file was removed
    again = cds.archive_options([], "", hive=True)  # the writer is done without a file: claim again
    assert _option(again, "-XX:ArchiveClassesAtExit") != _option(first, "-XX:ArchiveClassesAtExit")
    assert not (folder / f"spark-{KEY}.jsa").exists()


def test_a_new_archive_leaves_at_most_two_recent_ones_of_other_installations(folder: Path) -> None:
    folder.mkdir(parents=True)
    now = time.time()
    ages = {"a": 60, "b": 120, "c": 180, "d": 40 * 86400}  # seconds old; d: an update months ago
    for name, age in ages.items():
        other = folder / f"spark-{name * 16}.jsa"
        other.write_bytes(b"another installation's archive")
        os.utime(other, (now - age, now - age))
    first = cds.archive_options([], "", hive=True)
    _option(first, "-XX:ArchiveClassesAtExit").write_bytes(b"whole archive")
    _option(first, "-Xlog:cds+dynamic=info:file").write_text(LINE)
    cds.archive_options([], "", hive=True)
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == sorted([f"spark-{KEY}.jsa", f"spark-{'a' * 16}.jsa", f"spark-{'b' * 16}.jsa"])


def test_the_archive_is_on_unless_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cds, "archive_key", lambda options, hive: KEY)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for off in ("off", "OFF", "0", "false", "no"):
        monkeypatch.setenv(cds.ENV, off)
        assert cds.cache_dir() is None and cds.archive_options([], "", hive=True) == []
    for on in ("", "on"):
        monkeypatch.setenv(cds.ENV, on)
        assert cds.cache_dir() == tmp_path / "xdg" / "ldiv_db" / "spark-cds"
    monkeypatch.delenv(cds.ENV)
    assert cds.cache_dir() == tmp_path / "xdg" / "ldiv_db" / "spark-cds"
    assert cds.writes_archive(cds.archive_options([], "", hive=True))


# A stand-in for the driver JVM: exits at the end of its stdin (as pyspark's gateway does) after it wrote
# the partial file and then logged HotSpot's line; killed (SIGKILL) or slow where a test says so.
_JVM = """
import sys, time
from pathlib import Path
partial, log, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
sys.stdin.read()
if mode == "dies":
    partial.write_bytes(b"half")
    sys.exit(50)
time.sleep(float(mode))
partial.write_bytes(b"whole archive")
log.write_text(LINE)
"""


def _fake_jvm(options: list[str], mode: str) -> subprocess.Popen[bytes]:
    partial, log = (
        _option(options, "-XX:ArchiveClassesAtExit"),
        _option(options, "-Xlog:cds+dynamic=info:file"),
    )
    code = _JVM.replace("LINE", repr(LINE))
    return subprocess.Popen([sys.executable, "-c", code, str(partial), str(log), mode], stdin=subprocess.PIPE)


def test_the_writer_waits_for_its_jvm_then_publishes(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = cds.archive_options([], "", hive=True)
    proc = _fake_jvm(options, "0.5")
    cds.finish_writing(proc, options)
    assert proc.returncode == 0  # it ended because its stdin was closed, and was waited for
    assert cds.WRITING in capsys.readouterr().err
    final = folder / f"spark-{KEY}.jsa"
    assert sorted(p.name for p in folder.iterdir()) == [final.name]
    assert final.read_bytes() == b"whole archive"
    assert cds.archive_options([], "", hive=True) == [f"-XX:SharedArchiveFile={final}", cds.QUIET]


def test_a_writer_that_dies_leaves_nothing_and_the_next_claims_again(folder: Path) -> None:
    options = cds.archive_options([], "", hive=True)
    proc = _fake_jvm(options, "dies")
    cds.finish_writing(proc, options)
    assert proc.returncode == 50
    assert list(folder.iterdir()) == []  # the half file, its log and the claim are gone
    assert cds.writes_archive(cds.archive_options([], "", hive=True))


def test_a_ctrl_c_during_the_wait_kills_the_writer_and_publishes_nothing(folder: Path) -> None:
    options = cds.archive_options([], "", hive=True)
    proc = _fake_jvm(options, "60")

    # the CLI's handler once its command has ended ignores a Ctrl-C: the wait must still end on one
    def ended(signum: int, frame: object) -> None:
        return None

    previous = signal.signal(signal.SIGINT, ended)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        t0 = time.perf_counter()
        cds.finish_writing(proc, options)
        took = time.perf_counter() - t0
    finally:
        timer.cancel()
        handler_after = signal.signal(signal.SIGINT, previous)
    assert took < 30 and proc.returncode == -signal.SIGKILL
    assert list(folder.iterdir()) == []
    assert handler_after is ended  # the command's handler was put back


def test_a_claim_whose_process_is_gone_is_taken_again_at_once(folder: Path) -> None:
    first = cds.archive_options([], "", hive=True)
    claim = folder / f"spark-{KEY}.jsa.claim"
    assert claim.read_text() == str(os.getpid())
    assert cds.archive_options([], "", hive=True) == []  # its process (this one) runs: one writer
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    claim.write_text(gone.stdout.decode().strip())  # a claimant killed with its JVM (kill -9)
    again = cds.archive_options([], "", hive=True)
    assert _option(again, "-XX:ArchiveClassesAtExit") != _option(first, "-XX:ArchiveClassesAtExit")
    assert not (folder / f"spark-{KEY}.jsa").exists()
