"""bench/identity.py's arguments: ``--compare`` takes a fingerprint file or a checkout holding one, is read
before any case runs, and a partial or comparing run never replaces the committed fingerprints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import identity

FINGERPRINTS = {"releases": {"bsgi/l2": {"assignment": "a"}, "tp/d3": {"assignment": "b"}}, "seconds": 1.0}


def _collect_returning(result: dict[str, Any], calls: list[Any]) -> Any:
    def collect(only: list[str] | None = None) -> dict[str, Any]:
        calls.append(only)
        return result

    return collect


@pytest.fixture
def committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "committed.json"
    path.write_text(json.dumps(FINGERPRINTS), encoding="utf-8")
    monkeypatch.setattr(identity, "RESULTS", path)
    return path


def test_compare_reads_a_checkouts_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, committed: Path
) -> None:
    checkout = tmp_path / "before"
    (checkout / "bench" / "results").mkdir(parents=True)
    (checkout / "bench" / "results" / "identity.json").write_text(json.dumps(FINGERPRINTS), encoding="utf-8")
    calls: list[Any] = []
    monkeypatch.setattr(identity, "collect", _collect_returning(FINGERPRINTS, calls))
    assert identity.main(["--compare", str(checkout)]) == 0
    changed = {"releases": {**FINGERPRINTS["releases"], "tp/d3": {"assignment": "c"}}, "seconds": 1.0}
    monkeypatch.setattr(identity, "collect", _collect_returning(changed, calls))
    assert identity.main(["--compare", str(checkout)]) == 1  # a difference is found, not passed over
    assert json.loads(committed.read_text(encoding="utf-8")) == FINGERPRINTS  # comparing wrote nothing


@pytest.mark.parametrize("what", ["missing", "directory", "not json", "no releases"])
def test_a_bad_compare_argument_fails_before_any_case_runs(
    what: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    committed: Path,
) -> None:
    target = tmp_path / "before"
    if what == "directory":
        target.mkdir()  # a folder that is no checkout
    elif what == "not json":
        target.write_text("not json", encoding="utf-8")
    elif what == "no releases":
        target.write_text("[1, 2]", encoding="utf-8")
    calls: list[Any] = []
    monkeypatch.setattr(identity, "collect", _collect_returning(FINGERPRINTS, calls))
    with pytest.raises(SystemExit) as exc:
        identity.main(["--compare", str(target)])
    assert exc.value.code == 2
    assert calls == []
    assert f"--compare {target}" in capsys.readouterr().err


def test_a_partial_run_leaves_the_committed_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, committed: Path
) -> None:
    part = {"releases": {"bsgi/l2": {"assignment": "a"}}, "seconds": 0.5}
    calls: list[Any] = []
    monkeypatch.setattr(identity, "collect", _collect_returning(part, calls))
    assert identity.main(["--only", "bsgi"]) == 0
    assert calls == [["bsgi"]]
    assert json.loads(committed.read_text(encoding="utf-8")) == FINGERPRINTS
    out = tmp_path / "part.json"
    assert identity.main(["--only", "bsgi", "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == part
    assert identity.main([]) == 0  # the whole set, by default, is written where it is committed
    assert json.loads(committed.read_text(encoding="utf-8")) == part
