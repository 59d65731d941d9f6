"""The README's first command, ``make demo`` (``python -m fixtures.demo``), run as written on a fresh file:
it exits 0, prints one row per algorithm run plus the raw table's, every release verified, and writes its
two pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures import demo


def test_the_demo_runs_every_algorithm_and_writes_its_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "demo" / "ldiv_demo.duckdb"
    assert demo.main(["--db", str(db)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["table", "algorithm"])
    table = lines[start:]
    header, rule = table[0].split(), table[1]
    assert header[-1] == "verified"
    assert set(rule) <= {"-", " "}
    rows = table[2 : 2 + 1 + sum(1 for run in demo.PLAN if run.algorithm in demo.REGISTRY)]
    assert "(raw table)" in rows[0]
    for row in rows[1:]:
        assert row.rstrip().endswith("yes"), row
    assert db.exists()
    for name in ("report.html", "compare.html"):
        assert (db.parent / name).stat().st_size > 0, name
