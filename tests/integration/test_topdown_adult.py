"""(l,α) top-down on Adult with bench/topdown.py's synthetic health SA (slow: reads ../shared/datasets)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bench.topdown import ADULT, prepare, run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="../shared/datasets/adult is absent"),
]


@pytest.mark.parametrize("model", ["distinct-alpha", "entropy-alpha", "recursive-alpha"])
def test_adult_releases_verify(model: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = prepare(Path(tmp), 6, [100])
        rec = run(db, "adult_100", model, 2, 1)
        db.close()
    assert rec["verified"]
    assert rec["rows"] == 30162
    assert rec["rounds"] == 15
    if model != "distinct-alpha":  # defined over categories: no group is a single category
        assert rec["attack_single_category_rows"] == 0
