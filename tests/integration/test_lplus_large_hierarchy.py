"""l+-Optimize on a large hierarchy (issue 52): 20,000 leaves in groups of 10 have 2^2000 + 1 full-subtree
cuts, more than a float holds; the search's counts are exact integers and the command succeeds.

The expected release is derived by hand: rows c00000..c00999 (the first 100 groups), disease i mod 5, so
each group of ten holds every disease twice (2/10 <= 1/3: 3-diverse by frequency) and a leaf alone is
not. Under LM with recoding of violating rows (the default), generalizing a group to its node costs
(10 - 1) / (20,000 - 1) per row, while a leaf left alone violates and its row is deleted at 2 per row (one
QI, counted twice by the recoding scheme), and the root costs 1 per row: the optimum generalizes every
row to its group, LM = 1,000 * 9 / 19,999, with 100 groups and no row deleted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ldiv_db.cli.main import main

LEAVES, GROUP, ROWS = 20_000, 10, 1_000


def test_lplus_on_20000_leaves_in_groups_of_10(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("code;disease\n" + "".join(f"c{i:05d};d{i % 5}\n" for i in range(ROWS)), encoding="utf-8")
    hierarchy = tmp_path / "code.csv"
    hierarchy.write_text("".join(f"c{i:05d};g{i // GROUP:04d};*\n" for i in range(LEAVES)), encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    assert main(["load", db, str(csv), "--table", "t", "--sep", ";"]) == 0
    assert main(["hierarchy", "import", db, "--table", "t", "--column", "code", str(hierarchy)]) == 0
    capsys.readouterr()
    code = main(["anonymize", db, "--table", "t", "--qi", "code", "--sa", "disease", "--algorithm", "lplus",
                 "--l", "3", "--output", "r", "--quiet", "--no-kl", "--json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    res = json.loads(out)
    d = res["details"]
    assert d["cuts_total"] == 2 ** (LEAVES // GROUP) + 1  # the root, or each group's node kept or split
    assert d["cost_exact"] == f"{ROWS * (GROUP - 1)}/{LEAVES - 1}" and d["optimal"] is True
    assert 0 < d["pruned_share"] <= 1
    assert (res["rows_published"], res["rows_deleted"], res["classes"]) == (ROWS, 0, ROWS // GROUP)
    assert d["cut"]["code"][:2] == ["g0000", "g0001"]
