"""``ldiv risk`` as the user meets it: text and JSON with every figure's formula, assumption and paper,
exit 2 with a clear message for bad input, a read that writes nothing, and ``--rows-out`` as a new table
only (never replacing one)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from fixtures import census
from ldiv_db.cli.main import main
from ldiv_db.db import Database

QI = "age,sex,race,education"


@pytest.fixture(scope="module")
def dbfile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("risk_cli")
    files = census.write(tmp, n=1500)
    path = tmp / "risk.duckdb"
    assert main(["load", str(path), str(files["data"]), "--table", "census", "--sep", ";"]) == 0
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_and_json_show_every_figure_with_its_audit(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = hashlib.sha256(dbfile.read_bytes()).hexdigest()
    code, out, err = run(
        capsys, "risk", str(dbfile), "--table", "census", "--qi", QI, "--sampling-fraction", "0.05"
    )
    assert code == 0, err
    for text in (
        "prosecutor risk, highest",
        "journalist risk",
        "marketer risk",
        "sample uniques",
        "Dankar",
        "Pitman",
    ):
        assert text in out
    assert "assumes" in out and "= max_j 1/f_j" in out
    code, out, _ = run(
        capsys, "risk", str(dbfile), "--table", "census", "--qi", QI, "--sampling-fraction", "0.05", "--json"
    )
    d = json.loads(out)
    assert code == 0 and d["rows"] == 1500 and d["population"]["size"] == pytest.approx(30000)
    keys = {f["key"] for f in d["figures"]}
    assert {"prosecutor_highest", "marketer", "sample_uniques", "pitman", "zayatz", "snb", "dankar"} <= keys
    assert {f"qi_contribution:{q}" for q in QI.split(",")} <= keys
    for f in d["figures"]:
        assert f["formula"] and f["assumption"] and f["ref"], f
    assert d["population"]["dankar_model"] in ("pitman", "zayatz")  # sampling fraction 5 %: Pitman's side
    assert hashlib.sha256(dbfile.read_bytes()).hexdigest() == before  # a read writes nothing


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--population", "10"], "smaller than the data"),
        (["--threshold", "0"], "outside (0, 1]"),
        (["--sampling-fraction", "2"], "outside (0, 1]"),
        (["--population-table", "nowhere"], "nowhere"),
        (["--qi", "age,nope"], "nope"),
    ],
)
def test_bad_input_exits_2_with_the_fix(
    dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    base = ["risk", str(dbfile), "--table", "census"]
    code, _, err = run(capsys, *base, *(["--qi", QI] if "--qi" not in args else []), *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_rows_out_is_a_new_table_written_once(
    tmp_path: Path, dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "copy.duckdb"
    path.write_bytes(dbfile.read_bytes())
    base = ["risk", str(path), "--table", "census", "--qi", QI, "--json"]
    code, out, err = run(capsys, *base, "--rows-out", "census_risk")
    assert code == 0, err
    assert json.loads(out)["rows_out"] == "main.census_risk"
    db = Database.open(path, mode="read")
    try:
        n, uniques = db.con.execute(
            "SELECT count(*), count(*) FILTER (WHERE sample_unique) FROM census_risk"
        ).fetchone() or (0, 0)
    finally:
        db.close()
    assert n == 1500 and uniques == json.loads(out)["sample_uniques"]
    code, _, err = run(capsys, *base, "--rows-out", "census_risk")
    assert code == 2 and "already exists" in err and "never replaces" in err
    code, _, err = run(capsys, *base, "--rows-out", "census")
    assert code == 2 and "already exists" in err
    code, _, err = run(capsys, *base, "--rows-out", "ldiv.risk")
    assert code == 2 and "ldiv schema" in err
