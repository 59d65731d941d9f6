"""bench/peers/build_arx.sh without what it needs: a skip message and exit 0 (the peers suite then skips),
and never clearing a directory it did not make."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "peers" / "build_arx.sh"


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("ARX_")}
    return subprocess.run(
        ["bash", str(SCRIPT)], env={**base, **env}, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )


def test_skips_without_source(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run = _run(tmp_path, ARX_GIT=str(tmp_path / "absent"), ARX_CACHE=str(cache))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("skip: ")
    assert "ARX source absent" in run.stdout or "javac" in run.stdout
    assert not cache.exists()


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac not found")
def test_refuses_a_directory_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "src" / "src" / "main").mkdir(parents=True)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("a user's file\n")
    run = _run(tmp_path, ARX_SRC=str(tmp_path / "src"), ARX_CACHE=str(mine))
    if run.stdout.startswith("skip: "):
        pytest.skip(run.stdout.strip())  # a javac older than 17
    assert run.returncode == 2
    assert "was not made by this script" in run.stdout
    assert (mine / "keep.txt").read_text() == "a user's file\n"
