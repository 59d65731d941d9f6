"""A killed Spark run leaves the previous release intact and no table that failed verification under the
release's name: real kills (``os._exit`` at a seeded step of the staged publish) of separate processes
on one warehouse, each checked by the next process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.spark, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _child(url: str, step: str, kill_at: str | None = None) -> dict[str, object] | None:
    env = {k: v for k, v in os.environ.items() if k != "LDIV_KILL_AT"}
    if kill_at:
        env["LDIV_KILL_AT"] = kill_at
    proc = subprocess.run(
        [sys.executable, "-m", "tests.spark.kill_child", url, step],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if kill_at:
        assert proc.returncode == 137, proc.stderr[-2000:]
        return None
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_seeded_kills_leave_the_previous_release(tmp_path: Path, spark_session) -> None:  # type: ignore[no-untyped-def]
    url = f"spark://local[2]?warehouse={tmp_path / 'wh'}"
    first = _child(url, "setup")
    assert first is not None and first["tables"] == ["kill_out", "kill_src"] and first["content"]

    _child(url, "replace", kill_at="verify")  # written and verified in staging, never renamed
    after = _child(url, "state")
    assert (
        after is not None and after["content"] == first["content"] and after["releases"] == first["releases"]
    )
    assert any("__ldiv_stage_" in t for t in after["tables"])  # left under its own name only

    _child(url, "replace", kill_at="aside")  # the previous release renamed aside, the new one not yet in
    gap = _child(url, "state")
    assert gap is not None and gap["content"] is None and any("__ldiv_prev_" in t for t in gap["tables"])
    back = _child(url, "recover")
    assert back is not None and back["content"] == first["content"]
    assert back["tables"] == ["kill_out", "kill_src"] and back["releases"] == first["releases"]

    done = _child(url, "replace")
    assert done is not None and done["tables"] == ["kill_out", "kill_src"]
    assert [a for _, a in done["releases"]] == ["tp", "mondrian"]  # type: ignore[misc]
