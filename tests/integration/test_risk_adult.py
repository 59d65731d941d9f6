"""The reference tool's risk figures on Adult's raw table (issue 56), reproduced by ``ldiv risk``: 8 QIs,
highest prosecutor risk 1, average (= marketer) risk 0.41304, 0.50902 of the records above 0.2, sample
uniques 0.29312 of the records, 12,458 classes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from ldiv_db.cli.main import main

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = "sex,age,race,marital-status,education,native-country,workclass,salary-class"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def test_adult_reference_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "adult.duckdb"
    assert main(["load", str(path), str(ADULT / "adult.csv"), "--table", "adult", "--sep", ";"]) == 0
    capsys.readouterr()
    assert main(["risk", str(path), "--table", "adult", "--qi", QI, "--threshold", "0.2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    fig = {f["key"]: f for f in d["figures"]}
    print(
        {
            k: round(fig[k]["value"], 5)
            for k in (
                "prosecutor_highest",
                "prosecutor_average",
                "prosecutor_above",
                "marketer",
                "sample_uniques",
            )
        },
        d["classes"],
    )
    assert d["rows"] == 30162 and d["classes"] == 12458
    assert fig["prosecutor_highest"]["value"] == 1
    assert round(fig["prosecutor_average"]["value"], 5) == 0.41304
    assert round(fig["marketer"]["value"], 5) == 0.41304
    assert round(fig["prosecutor_above"]["value"], 5) == 0.50902
    assert round(fig["sample_uniques"]["value"], 5) == 0.29312
    assert fig["prosecutor_average"]["exact"] == str(Fraction(12458, 30162))  # J/n, exact
