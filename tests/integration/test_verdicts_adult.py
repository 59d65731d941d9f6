"""Issue 51's Adult case of class 3, through the command line: BSGI at l = 4 records Unique Distinct on its
classes (group id and labels) and distinct l-diversity on its label classes, and ``ldiv check`` with each
recorded model, grouped as each partition is, agrees; Unique Distinct by labels, which the record does
not claim, fails there. Slow: reads ../shared/datasets (never copied here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
SA = "occupation"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def ldiv(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return code, json.loads(out)


def test_bsgi_l4_on_adult_records_the_models_that_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "adult.duckdb"
    db = Database.open(path)
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in QI:
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    db.close()
    code, res = ldiv(
        capsys, "anonymize", str(path), "--table", "adult", "--qi", ",".join(QI), "--sa", SA,
        "--algorithm", "bsgi", "--l", "4", "--output", "bsgi_4", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0 and res["verified"] and res["model"] == "unique-distinct"
    classes, labels = res["verification"]
    assert (classes["partition"], classes["model"], classes["holds"]) == ("classes", "unique-distinct", True)
    assert (labels["partition"], labels["model"], labels["holds"]) == ("labels", "distinct", True)
    base = ["check", str(path), "--table", "bsgi_4", "--sa", SA, "--l", "4", "--json"]
    by_labels = ["--qi", ",".join(QI), "--by-labels"]
    by_group = ["--group-column", "group_id"]
    found = {}
    for name, grouping in (("classes", by_group), ("labels", by_labels)):
        for model in ("unique-distinct", "distinct"):
            code, chk = ldiv(capsys, *base, *grouping, "--model", model)
            found[(name, model)] = (code, chk["classes"], chk["violating_classes"])
    # what the record claims holds, with the same class counts and no violation
    assert found[("classes", "unique-distinct")] == (0, classes["classes"], 0)
    assert found[("labels", "distinct")] == (0, labels["classes"], 0)
    # Unique Distinct on the label classes (unions of classes) fails: the record does not claim it
    code, groups, violating = found[("labels", "unique-distinct")]
    assert code == 1 and violating > 0
    with capsys.disabled():
        print(
            f"\nAdult BSGI l=4: recorded {classes['describe']} on {classes['classes']} classes "
            f"(check --group-column: {found[('classes', 'unique-distinct')]}), {labels['describe']} on "
            f"{labels['classes']} label classes (check: {found[('labels', 'distinct')]}); check "
            f"--model unique-distinct by labels: exit {code}, {violating} of {groups} label classes violate"
        )
