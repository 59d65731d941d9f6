"""The user's environment, not a bug (issue 52): a full disk and a directory that may not be written.

Rule: an engine error caused by the disk or the file system is a StorageError (exit 2) naming the path and
what to change, for every write (load, anonymize, a job file, the API); nothing of the command is written
and a database file the command created is gone. One enforcement point: ldiv_db/db/engine_errors.py
``engine_error`` (every DuckDB call of ``Database``, via ``Database._engine``).

Two kinds of test: DuckDB's own errors injected at the engine boundary (a connection whose COMMIT fails as
DuckDB's does on a full disk or an unwritable directory; always run), and the real thing (a small tmpfs,
and a directory without write permission for the user running ldiv), skipped with the reason where this
machine cannot mount or drop privileges.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ldiv_db
from ldiv_db import api
from ldiv_db.cli.main import main
from ldiv_db.db.duckdb import sharing
from ldiv_db.errors import StorageError

REPO = Path(__file__).resolve().parents[2]
QI = ["--qi", "zip,sex", "--sa", "disease"]


def people_csv(folder: Path, rows: int = 60) -> Path:
    csv = folder / "people.csv"
    lines = [f"1007{i % 7};{'FM'[i % 2]};{'abcde'[i % 5]};{i}" for i in range(rows)]
    csv.write_text("zip;sex;disease;n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return csv


class Failing:
    """A DuckDB connection whose COMMIT fails, when ``armed``, with DuckDB's own message for ``cause``
    (as DuckDB 1.x reports a write-ahead log it cannot write)."""

    armed = False

    def __init__(self, con: duckdb.DuckDBPyConnection, wal: str, cause: str) -> None:
        self._con, self._wal, self._cause = con, wal, cause

    def execute(self, sql: str | duckdb.Statement, params: Any = None) -> Any:
        # a kept parse (DuckDBDatabase._statement) is a plain read, never a COMMIT
        if Failing.armed and isinstance(sql, str) and sql.strip().upper().startswith("COMMIT"):
            self._con.execute("ROLLBACK")  # DuckDB rolls a failed commit back
            verb = "write" if "space" in self._cause else "open"
            raise duckdb.TransactionException(
                f'TransactionContext Error: Failed to commit: Could not {verb} file "{self._wal}": {self._cause}'
            )
        return self._con.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)


@pytest.fixture(params=["No space left on device", "Permission denied"])
def failing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every file connection ldiv_db opens fails its COMMITs with ``request.param`` once armed."""
    real = sharing._connect

    def connect(path: str, read: bool) -> tuple[Any, bool]:
        con, read_only = real(path, read)
        return Failing(con, str(Path(path).resolve()) + ".wal", request.param), read_only

    monkeypatch.setattr(sharing, "_connect", connect)
    Failing.armed = False
    yield str(request.param)
    Failing.armed = False


def _said(err: str, cause: str, path: Path) -> None:
    """The message a user gets for ``cause`` on database ``path``: the environment, never a bug."""
    wal = f"{path.resolve()}.wal"
    if "space" in cause:
        assert f"error: no space left on the device holding {wal}" in err
    else:
        assert f"error: cannot create {wal}: the directory {path.resolve().parent} is not writable" in err
        assert "write-ahead log" in err and "read-only" in err
    assert "bug" not in err and "internal error" not in err and "Traceback" not in err


def test_cli_writes_on_a_full_or_unwritable_disk(
    tmp_path: Path, failing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = people_csv(tmp_path)
    db = tmp_path / "p.duckdb"
    assert main(["load", str(db), str(csv), "--table", "people", "--sep", ";"]) == 0
    assert main(["anonymize", str(db), "--table", "people", *QI, "--algorithm", "mondrian", "--l", "2",
                 "--output", "r1", "--quiet"]) == 0  # fmt: skip
    capsys.readouterr()
    Failing.armed = True
    anonymize = ["anonymize", str(db), "--table", "people", *QI, "--algorithm", "mondrian", "--l", "2",
                 "--output", "r2", "--quiet"]  # fmt: skip
    assert main(anonymize) == 2
    _said(capsys.readouterr().err, failing, db)
    new = tmp_path / "new.duckdb"
    assert main(["load", str(new), str(csv), "--table", "people", "--sep", ";"]) == 2
    _said(capsys.readouterr().err, failing, new)
    assert not new.exists() and not Path(f"{new}.wal").exists()
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "job.duckdb"\n[source]\ntable = "people"\nload = "{csv.name}"\nsep = ";"\n'
        '[anonymize]\nqi = ["zip", "sex"]\nsa = "disease"\nalgorithm = "mondrian"\nl = 2\noutput = "rj"\n',
        encoding="utf-8",
    )
    assert main(["run", str(job)]) == 2
    _said(capsys.readouterr().err, failing, tmp_path / "job.duckdb")
    assert not (tmp_path / "job.duckdb").exists() and not (tmp_path / "job.duckdb.wal").exists()
    Failing.armed = False
    # nothing of the failed commands was written; the database works on
    assert main(["releases", str(db), "--json"]) == 0
    import json

    names = [r["name"] for r in json.loads(capsys.readouterr().out)["releases"]]
    assert names == ["main.r1"]
    assert main(anonymize) == 0


def test_api_writes_on_a_full_or_unwritable_disk(tmp_path: Path, failing: str) -> None:
    csv = people_csv(tmp_path)
    db = tmp_path / "p.duckdb"
    api.load(str(db), str(csv), "people", sep=";")
    Failing.armed = True
    with pytest.raises(StorageError) as caught:
        ldiv_db.anonymize(str(db), "people", "zip,sex", "disease", algorithm="mondrian", l=2, output="r")
    assert caught.value.exit_code == 2
    _said(f"error: {caught.value}", failing, db)
    new = tmp_path / "new.duckdb"
    with pytest.raises(StorageError) as caught:
        api.load(str(new), str(csv), "people", sep=";")
    _said(f"error: {caught.value}", failing, new)
    assert not new.exists() and not Path(f"{new}.wal").exists()
    Failing.armed = False
    assert [r["name"] for r in api.releases(str(db)).rows] == []


# ---------------------------------------------------------------------------------------------- the real thing
def _cli(*args: str, user: int | None = None) -> subprocess.CompletedProcess[str]:
    """``ldiv ARGS`` in a process of its own; ``user``: as that user (setpriv sets the real and effective
    ids, so file permissions apply, while the interpreter under root's home still runs)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    become = [] if user is None else ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"]
    return subprocess.run(
        [*become, sys.executable, "-m", "ldiv_db.cli.main", *args], capture_output=True, text=True, env=env,
        check=False, timeout=300, cwd=REPO,
    )  # fmt: skip


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MiB tmpfs (root only; CI runs as root)."""
    where = tmp_path / "small"
    where.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)], capture_output=True, text=True
        )
    except OSError as exc:
        pytest.skip(f"cannot run mount: {exc}")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_real_full_disk(tmp_path: Path, small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = people_csv(tmp_path, rows=40_000)
    db = small_disk / "p.duckdb"
    codes = [main(["load", str(db), str(csv), "--table", "people", "--sep", ";"])]
    for i in range(30):
        if codes[-1] == 2:
            break
        codes.append(main(["anonymize", str(db), "--table", "people", *QI, "--algorithm", "mondrian",
                           "--l", "2", "--output", f"r{i}", "--quiet"]))  # fmt: skip
    err = capsys.readouterr().err
    with capsys.disabled():
        print("exit codes until the 3 MiB disk was full:", codes)
    assert codes[-1] == 2, "the disk never filled"
    assert set(codes) <= {0, 2}
    assert f"error: no space left on the device holding {small_disk}" in err
    assert "bug" not in err and "internal error" not in err
    new = small_disk / "new.duckdb"
    assert main(["load", str(new), str(csv), "--table", "people", "--sep", ";"]) == 2
    assert "no space left on the device holding" in capsys.readouterr().err
    assert {p.name for p in small_disk.iterdir()} <= {"p.duckdb", "p.duckdb.wal"}  # no new.duckdb left
    if codes[0] == 0:  # the file holds the table and every release that succeeded, nothing more
        assert main(["releases", str(db), "--json"]) == 0
        assert capsys.readouterr().out.count('"release_id"') == codes.count(0) - 1


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's own are private to the user running it)."""
    base = Path(tempfile.mkdtemp(prefix="ldiv-ro-"))
    base.chmod(0o755)
    yield base
    for f in base.rglob("*"):
        with contextlib.suppress(OSError):
            f.chmod(0o755)
    shutil.rmtree(base, ignore_errors=True)


def test_a_real_directory_without_write_permission(open_folder: Path) -> None:
    csv = people_csv(open_folder)
    folder = open_folder / "ro"
    folder.mkdir()
    db = folder / "p.duckdb"
    assert main(["load", str(db), str(csv), "--table", "people", "--sep", ";"]) == 0
    user = None
    if os.geteuid() == 0:  # root writes anywhere: run ldiv as nobody, who may write the file only
        user = 65534
        os.chown(db, user, user)
        for parent in REPO.parents:
            if (parent.stat().st_mode & 0o001) == 0:
                pytest.skip(f"{parent} cannot be entered by another user, who would run ldiv")
    db.chmod(0o666)
    folder.chmod(0o555)
    try:
        try:
            done = _cli("anonymize", str(db), "--table", "people", *QI, "--algorithm", "mondrian", "--l",
                        "2", "--output", "r", "--quiet", user=user)  # fmt: skip
        except OSError as exc:
            pytest.skip(f"cannot run ldiv as another user here: {exc}")
        if done.returncode != 2 and "ldiv" not in done.stderr:
            pytest.skip(f"cannot run ldiv as another user here: {done.stderr.strip()[:200]}")
        assert done.returncode == 2, done.stderr
        _said(done.stderr, "Permission denied", db)
        read = _cli("check", str(db), "--table", "people", *QI, "--model", "distinct", "--l", "2", user=user)
        assert read.returncode in (0, 1), read.stderr  # a read opens the file read-only and works
    finally:
        folder.chmod(0o755)
