"""Issue 51, class 7: a Ctrl-C around the release's COMMIT. The rule: before the commit point nothing is
written (the run is ``interrupted``, the CLI says "nothing was written"); from the commit point on the
release is complete, its run is recorded ``done`` and the CLI exits 130 saying the release is published.
Real SIGINTs in a real process (tests/integration/commit_signals.py), for mondrian, tp+ and full-domain:
at exact moments around the commit, and from a timer at a range of delays after the COMMIT starts.
In every case the run's status, the CLI's message and exit code and the release's existence agree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.schema.runs import CTRL_C_NOTE, CTRL_C_PUBLISHED_NOTE
from tests.integration.frames import make_table

ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ("mondrian", "tp+", "full-domain")
NOTHING = "interrupted: nothing was written"
COMMITTED = "interrupted after the release was committed: release main.r (release 1, run 1) is published"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("commit") / "template.duckdb"
    db = Database.open(path)
    make_table(db, "census", census.generate(400, 7)[["age", "sex", "race", "education", "occupation"]])
    taxonomy.build_hierarchy(db, "census", "age", [10, 20, 40])
    db.close()
    return path


def _copies(template: Path, work: Path, cases: list[str]) -> list[str]:
    """Each case (``ALGORITHM:HOOK:DELAY``) on its own copy of the template database file."""
    work.mkdir(exist_ok=True)
    out = []
    for i, case in enumerate(cases):
        db = work / f"case{i}.duckdb"
        shutil.copy(template, db)
        out.append(f"{case}:{db}")
    return out


def run_cases(cases: list[str]) -> list[dict[str, Any]]:
    """Run ``ALGORITHM:HOOK:DELAY:DATABASE`` cases in the child process (commit_signals.py)."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.integration.commit_signals", *cases],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        # a test runner may hand its children SIGINT ignored; the child sets the terminal's handler
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def outcome(case: dict[str, Any]) -> str:
    """The one story the case's records tell, or an AssertionError naming the disagreement."""
    where = f"{case['algorithm']} {case['hook']} {case['delay']}: {case}"
    assert "Traceback" not in case["stderr"], where
    [(status, note)] = case["runs"]  # one run, ended
    released = len(case["releases"]) == 1
    assert released == case["table"], where  # a release record without its table, or the reverse
    if not released:
        assert (case["code"], status, note) == (130, "interrupted", CTRL_C_NOTE), where
        assert case["stderr"].strip() == NOTHING, where
        return "nothing written"
    assert status == "done", where
    if case["code"] in (0, "late"):  # the signal came after the command had ended: its outcome stands
        assert note is None and "interrupted" not in case["stderr"], where
        assert "release      main.r (release 1, run 1)" in case["stdout"], where
        return "ended before the signal"
    assert case["code"] == 130 and case["stderr"].startswith(COMMITTED), where
    assert note in (None, CTRL_C_PUBLISHED_NOTE), where  # None: the end was recorded before the signal
    return "committed, then interrupted"


# the outcome a Ctrl-C raised at each moment must have (commit_signals.py names the moments)
EXPECTED = {
    "record": "nothing written",
    "commit": "committed, then interrupted",
    "published": "committed, then interrupted",
    "finish": "nothing written",  # the run's end is written in the release's transaction (before the COMMIT)
    "emit": "committed, then interrupted",
    # taken by the handler inside an "import", asked for again after the command has ended: it reaches
    # the caller (this harness) as the command returns, never later at a random place
    "import": "ended before the signal",
}


def test_a_ctrl_c_at_each_moment_around_the_commit(template: Path, tmp_path: Path) -> None:
    cases = [f"{a}:{hook}:0" for a in ALGORITHMS for hook in EXPECTED]
    got = {(c["algorithm"], c["hook"]): outcome(c) for c in run_cases(_copies(template, tmp_path, cases))}
    assert got == {(a, hook): want for a in ALGORITHMS for hook, want in EXPECTED.items()}
    print(f"exact moments: {dict(Counter(got.values()))}")


def test_a_ctrl_c_from_a_timer_around_the_commit_is_told_as_it_happened(
    template: Path, tmp_path: Path
) -> None:
    delays = (0.0, 0.0005, 0.002, 0.008, 0.03, 0.3)
    cases = [f"{a}:timer:{d}" for a in ALGORITHMS for d in delays]
    results = run_cases(_copies(template, tmp_path, cases))
    assert len(results) == len(cases)
    tally = Counter((r["algorithm"], outcome(r)) for r in results)
    print("timer sweep:", {f"{a} / {o}": n for (a, o), n in sorted(tally.items())})
    # the timer starts with the COMMIT: the release is always complete, whatever the moment
    assert all(r["releases"] for r in results)
