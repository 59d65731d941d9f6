"""Audit state (issue 11): a run killed by SIGKILL stays ``running`` only until the next write command,
which marks it ``interrupted`` (a read does not; ``ldiv doctor`` lists it, issue 51 class 9); Ctrl-C
during a run marks it ``interrupted`` and publishes nothing; a run this process still has under way is
never marked by another open."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.schema.runs import CTRL_C_NOTE, STALE_NOTE
from tests.integration.frames import make_table

PAPER = PAPER_TABLES["decomposition_table1"]
anonymize_module = importlib.import_module(
    "ldiv_db.commands.anonymize"
)  # the module (ldiv_db.anonymize is the function)
ROOT = Path(__file__).resolve().parents[2]
ANONYMIZE = [
    "--table",
    "t",
    "--qi",
    "Gender,Zip",
    "--sa",
    "Occupation",
    "--algorithm",
    "mondrian",
    "--l",
    "2",
]

# Runs `ldiv anonymize` in a real process that signals itself once the rows are partitioned, just before
# the release would be written, or with SIGNAL:after right after it was committed (argv: db, signal,
# output, anonymize flags).
SIGNALLED = """
import importlib, os, signal, sys, time
from ldiv_db.cli.main import main

# a test runner's worker may hand its children SIGINT ignored; a user's terminal does not
signal.signal(signal.SIGINT, signal.default_int_handler)
anonymize = importlib.import_module("ldiv_db.commands.anonymize")

original = anonymize.publish
name, _, when = sys.argv[2].partition(":")

def publish(*args, **kwargs):
    result = original(*args, **kwargs) if when == "after" else None  # "after": once the release is committed
    os.kill(os.getpid(), getattr(signal, name))
    time.sleep(1)  # the handler runs in the main thread at its next check; sleep is such a check
    raise AssertionError("the signal did not stop the run")

anonymize.publish = publish
sys.exit(main(["anonymize", sys.argv[1], *sys.argv[4:], "--output", sys.argv[3], "--quiet"]))
"""


@pytest.fixture
def dbfile(tmp_path: Path) -> Path:
    path = tmp_path / "runs.duckdb"
    db = Database.open(path)
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    db.close()
    return path


def runs(path: Path) -> list[dict[str, Any]]:
    db = Database.open(path, mode="read")
    try:
        rows = db.raw_rows("SELECT run_id, status, error, output FROM ldiv.run ORDER BY run_id")
    finally:
        db.close()
    return [{"run_id": r, "status": s, "error": e, "output": o} for r, s, e, o in rows]


def releases(path: Path) -> int:
    db = Database.open(path, mode="read")
    try:
        return int(db.raw_rows("SELECT count(*) FROM ldiv.release")[0][0])
    finally:
        db.close()


def signalled(path: Path, signame: str, output: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", SIGNALLED, str(path), signame, output, *ANONYMIZE],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def test_a_killed_run_is_marked_interrupted_by_the_next_write_not_by_a_read(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proc = signalled(dbfile, "SIGKILL", "killed")
    assert proc.returncode == -9, proc.stderr
    assert [r["status"] for r in runs(dbfile)] == ["running"]
    assert main(["check", str(dbfile), "--table", "t", "--qi", "Gender,Zip", "--sa", "Occupation"]) == 0
    assert [r["status"] for r in runs(dbfile)] == ["running"]  # a read writes nothing
    capsys.readouterr()
    code = main(["anonymize", str(dbfile), *ANONYMIZE, "--output", "after", "--quiet", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verified"]
    state = runs(dbfile)
    assert [(r["status"], r["output"]) for r in state] == [
        ("interrupted", "main.killed"),
        ("done", "main.after"),
    ]
    assert state[0]["error"] == STALE_NOTE
    assert releases(dbfile) == 1


def test_ctrl_c_during_a_run_marks_it_interrupted_and_publishes_nothing(dbfile: Path) -> None:
    proc = signalled(dbfile, "SIGINT", "stopped")
    assert proc.returncode == 130, proc.stderr
    assert "interrupted" in proc.stderr and "Traceback" not in proc.stderr
    state = runs(dbfile)
    assert [(r["status"], r["error"]) for r in state] == [("interrupted", CTRL_C_NOTE)]
    assert releases(dbfile) == 0
    db = Database.open(dbfile, mode="read")
    assert not db.raw_rows("SELECT * FROM duckdb_tables() WHERE table_name = 'stopped'")
    db.close()


# `ldiv ...` as the process's own command line (main() without argv), then a Ctrl-C once it has returned
ENDED = """
import os, signal, sys, time
from ldiv_db.cli import main as cli

signal.signal(signal.SIGINT, signal.default_int_handler)  # as a user's terminal hands it over
sys.argv = ["ldiv", "anonymize", sys.argv[1], *sys.argv[2:], "--output", "late", "--quiet"]
code = cli.main()
os.kill(os.getpid(), signal.SIGINT)
time.sleep(0.5)  # the handler runs at the next check
print("after", code, flush=True)
sys.exit(code)
"""


def test_a_ctrl_c_after_the_command_ended_changes_nothing(dbfile: Path) -> None:
    """The release is committed and the command has returned: a late Ctrl-C (the process is about to
    exit) prints no traceback and leaves the exit code and the release as they are."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", ENDED, str(dbfile), *ANONYMIZE],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert proc.returncode == 0 and "after 0" in proc.stdout, proc.stderr
    assert "Traceback" not in proc.stderr and "interrupted" not in proc.stderr
    assert releases(dbfile) == 1


def test_a_run_under_way_in_this_process_is_not_marked(dbfile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database.open(dbfile)
    db.raw_rows(
        "INSERT INTO ldiv.run (run_id, command, status) VALUES (nextval('ldiv.run_seq'), 'anonymize', 'running')"
    )
    db.close()
    original = anonymize_module.publish
    seen: list[list[dict[str, Any]]] = []

    def publish(database: Database, *args: Any, **kwargs: Any) -> Any:
        # a second write open of the same file while this run is under way
        Database.open(dbfile).close()
        seen.append(runs(dbfile))
        return original(database, *args, **kwargs)

    monkeypatch.setattr(anonymize_module, "publish", publish)
    res = ldiv_db.anonymize(
        str(dbfile), "t", ["Gender", "Zip"], "Occupation", algorithm="mondrian", l=2, output="o"
    )
    assert res.verified
    assert [r["status"] for r in seen[0]] == ["interrupted", "running"]
    assert [r["status"] for r in runs(dbfile)] == ["interrupted", "done"]


def test_a_run_killed_right_after_its_commit_is_done(dbfile: Path) -> None:
    # the run's end is committed with its release (the audit records after the start written together)
    proc = signalled(dbfile, "SIGKILL:after", "committed")
    assert proc.returncode == -9, proc.stderr
    assert [(r["status"], r["error"]) for r in runs(dbfile)] == [("done", None)] and releases(dbfile) == 1
    Database.open(dbfile).close()  # any write open: nothing to mark
    assert [(r["status"], r["error"]) for r in runs(dbfile)] == [("done", None)]


# Kills `ldiv anonymize` inside the release's transaction, right after the run's end was written with the
# release's records and before the commit (argv: db, output, anonymize flags).
KILLED_BEFORE_COMMIT = """
import importlib, os, signal, sys
from ldiv_db.cli.main import main

publish = importlib.import_module("ldiv_db.pipeline.publish")
original = publish._end_run

def end_run(ctx, verdict):
    original(ctx, verdict)
    os.kill(os.getpid(), signal.SIGKILL)

publish._end_run = end_run
sys.exit(main(["anonymize", sys.argv[1], *sys.argv[3:], "--output", sys.argv[2], "--quiet"]))
"""


def test_a_run_killed_after_its_end_was_written_but_before_the_commit_stays_started(dbfile: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_BEFORE_COMMIT, str(dbfile), "uncommitted", *ANONYMIZE],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == -9, proc.stderr
    # the start, committed on its own, is what the kill leaves; the end went with the uncommitted release
    assert [(r["status"], r["output"]) for r in runs(dbfile)] == [("running", "main.uncommitted")]
    assert releases(dbfile) == 0
    Database.open(dbfile).close()  # the next write marks it
    assert [(r["status"], r["error"]) for r in runs(dbfile)] == [("interrupted", STALE_NOTE)]


def test_doctor_lists_a_killed_run_and_repair_ends_it(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proc = signalled(dbfile, "SIGKILL", "killed")
    assert proc.returncode == -9, proc.stderr
    capsys.readouterr()
    assert main(["doctor", str(dbfile), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale_runs"] == [{"run_id": 1, "status": "running"}]
    assert [r["status"] for r in runs(dbfile)] == ["running"]  # the doctor only reads
    assert main(["doctor", str(dbfile), "--repair"]) == 0
    out = capsys.readouterr().out
    assert "run 1 was 'running' but its owner is gone" in out and "recorded interrupted" in out, out
    assert [(r["status"], r["error"]) for r in runs(dbfile)] == [("interrupted", STALE_NOTE)]
