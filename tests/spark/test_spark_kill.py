"""A killed Spark run leaves the previous release intact and no table that failed verification under the
release's name: real kills (``os._exit`` at a seeded step of the staged publish) of separate processes
on one warehouse, each checked by the next process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.spark, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _child(
    url: str, step: str, run: int = 0, kill_at: str | None = None, files: Path | None = None
) -> dict[str, Any] | None:
    env = {k: v for k, v in os.environ.items() if k != "LDIV_KILL_AT"}
    if kill_at:
        env["LDIV_KILL_AT"] = kill_at
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.spark.kill_child",
            url,
            step,
            str(run),
            *([str(files)] if files else []),
        ],
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
    first = _child(url, "publish", 1)
    assert first == {"tables": ["kill_out", "kill_record"], "content": [0, 1, 2], "records": [1]}

    _child(url, "publish", 2, kill_at="verify")  # written and verified in staging, never renamed
    after = _child(url, "state")
    assert after is not None and after["content"] == [0, 1, 2] and after["records"] == [1]
    assert any("__ldiv_stage_2" in t for t in after["tables"])  # type: ignore[attr-defined]

    _child(url, "publish", 3, kill_at="aside")  # the previous release aside, the new one not yet in
    gap = _child(url, "state")
    assert gap is not None and gap["content"] is None and "kill_out__ldiv_prev_3" in gap["tables"]  # type: ignore[operator]
    back = _child(url, "recover")
    assert back == {"tables": ["kill_out", "kill_record"], "content": [0, 1, 2], "records": [1]}

    _child(url, "publish", 4, kill_at="publish")  # renamed in, killed before the record
    unrecorded = _child(url, "state")
    assert unrecorded is not None and unrecorded["content"] == list(range(6)) and unrecorded["records"] == [1]
    back = _child(url, "recover")  # run 4 recorded nothing: the previous release comes back
    assert back == {"tables": ["kill_out", "kill_record"], "content": [0, 1, 2], "records": [1]}

    done = _child(url, "publish", 5)
    assert done == {"tables": ["kill_out", "kill_record"], "content": list(range(7)), "records": [1, 5]}


def test_seeded_kills_leave_a_stream_as_it_was(tmp_path: Path, spark_session) -> None:  # type: ignore[no-untyped-def]
    """A Decomposition+ append killed after its staged build (written, verified and linked under the
    reserved id) and after its tables were renamed in (unrecorded): the stream's published tables, kept-back
    rows, keys, row map and state stay release 1's as seen by the next process, which puts the previous
    tables back, forgets the orphaned links and publishes release 2 as an unkilled run does."""
    from tests.spark.test_spark_decomposition import _files

    files = tmp_path / "files"
    files.mkdir()
    _files(files)
    url = f"spark://local[2]?warehouse={tmp_path / 'wh'}"
    _child(url, "stream-load", files=files)
    first = _child(url, "stream-first", files=files)
    assert (
        first is not None and first["releases"] == 1 and first["stream_rows"] == 40 and not first["leftovers"]
    )
    published = {
        k: first[k] for k in ("qid_rows", "sa_rows", "retained", "keys", "stream_rows", "stream", "releases")
    }

    _child(url, "stream-append", 1, kill_at="verify", files=files)
    seen = _child(url, "stream-state", files=files)
    assert seen is not None and {k: seen[k] for k in published} == published
    assert seen["leftovers"]  # the staging tables wait for the next publish

    _child(url, "stream-append", 1, kill_at="publish", files=files)
    seen = _child(url, "stream-state", files=files)
    assert seen is not None and seen["releases"] == 1 and seen["stream_rows"] == 40  # unrecorded
    assert seen["stream"] == first["stream"]

    done = _child(url, "stream-append", 1, files=files)
    assert done is not None and not done["leftovers"]
    assert done["releases"] == 2 and done["stream_rows"] == done["keys"] == 80
    assert done["qid_rows"] + done["retained"] == 80
    assert done["release_rows"] == first["release_rows"] + done["qid_rows"]  # no orphaned link
    # release 2's noise logged once, release 1's as it was (each run draws its own seed: counts vary)
    assert first["noise_of"] == ({"1": first["added"]} if first["added"] else {})
    assert done["noise_of"] == {**first["noise_of"], **({"2": done["added"]} if done["added"] else {})}
    assert done["noise"] == first["noise"] + done["added"]
