"""Sources DuckDB reads itself (issue 55 item 4): ``ldiv load`` of a glob of Parquet or CSV files and of a
hive-partitioned Parquet dataset folder, and ``check`` / ``anonymize --from "read_parquet(...)"``; their
rows and numbers equal those of the same rows loaded from one CSV file, and their row ids follow the
files' name order (stable while the files are)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from fixtures import census
from ldiv_db.cli.main import main

pa = pytest.importorskip("pyarrow")
ds = pytest.importorskip("pyarrow.dataset")

QI = ["age", "sex", "race"]
SA = "occupation"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same 3,000 rows as one CSV, as three Parquet parts (named so that name order is row order), as
    three CSV parts, and as a dataset partitioned by sex."""
    root = tmp_path_factory.mktemp("sources")
    frame = census.generate(n=3000, seed=11)[[*QI, SA]]
    frame.to_csv(root / "all.csv", index=False)
    (root / "parts").mkdir()
    for i in range(3):
        part = frame.iloc[i * 1000 : (i + 1) * 1000]
        part.to_parquet(root / "parts" / f"part{i}.parquet", index=False)
        part.to_csv(root / "parts" / f"part{i}.csv", index=False)
    ds.write_dataset(pa.Table.from_pandas(frame), root / "dataset", format="parquet", partitioning=["sex"],
                     partitioning_flavor="hive")  # fmt: skip
    db = str(root / "ref.duckdb")
    assert main(["load", db, str(root / "all.csv"), "--table", "ref"]) == 0
    return root


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main([*args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def numbers(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in ("table", "seconds", "queries")}


def rows_by_rowid(db: str, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    con = duckdb.connect(db, read_only=True)
    try:
        cols = ", ".join(f'"{c}"' for c in columns)
        return con.execute(f"SELECT {cols} FROM {table} ORDER BY rowid").fetchall()
    finally:
        con.close()


def test_load_a_glob_keeps_the_files_name_order(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref_db = str(files / "ref.duckdb")
    want = rows_by_rowid(ref_db, "ref", [*QI, SA])
    db = str(files / "glob.duckdb")
    for kind in ("parquet", "csv"):
        assert main(["load", db, str(files / "parts" / f"part*.{kind}"), "--table", f"from_{kind}"]) == 0
        assert rows_by_rowid(db, f"from_{kind}", [*QI, SA]) == want, kind
    _, ref = run_json(capsys, "check", ref_db, "--table", "ref", "--qi", ",".join(QI), "--sa", SA)
    _, got = run_json(capsys, "check", db, "--table", "from_parquet", "--qi", ",".join(QI), "--sa", SA)
    assert numbers(got) == numbers(ref)


def test_load_a_partitioned_dataset(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(files / "dataset.duckdb")
    assert main(["load", db, str(files / "dataset"), "--table", "people"]) == 0
    ref_db = str(files / "ref.duckdb")
    args = ["--qi", ",".join(QI), "--sa", SA, "--model", "distinct", "--l", "2", "--worst", "1000"]
    _, ref = run_json(capsys, "check", ref_db, "--table", "ref", *args)
    _, got = run_json(capsys, "check", db, "--table", "people", *args)  # sex comes from the folder names
    assert numbers(got) == numbers(ref) and ref["violating_classes"] > 0
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT sex, count(*) FROM people GROUP BY sex ORDER BY sex").fetchall() == sorted(
        pd.read_csv(files / "all.csv").groupby("sex").size().items()
    )
    con.close()


def test_check_from_a_table_function(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref_db = str(files / "ref.duckdb")
    source = f"read_parquet('{files / 'parts' / 'part*.parquet'}')"
    args = ["--qi", ",".join(QI), "--sa", SA, "--model", "entropy", "--l", "2", "--worst", "1000"]
    _, ref = run_json(capsys, "check", ref_db, "--table", "ref", *args)
    code, got = run_json(capsys, "check", ref_db, "--from", source, *args)
    assert code == 1 and numbers(got) == numbers(ref)
    con = duckdb.connect(ref_db, read_only=True)
    assert con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall() == [("ref",)]  # a check is a read: the rows were kept in a temporary table only
    con.close()


def test_anonymize_from_a_table_function(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(files / "anon.duckdb")
    source = f"read_parquet('{files / 'parts' / 'part*.parquet'}')"
    args = ["--qi", ",".join(QI), "--sa", SA, "--algorithm", "mondrian", "--l", "3", "--seed", "4"]
    code, res = run_json(
        capsys, "anonymize", db, "--from", source, "--table", "people", "--output", "rel", *args
    )
    assert code == 0 and res["verified"] and res["rows_in"] == 3000
    assert rows_by_rowid(db, "people", [*QI, SA]) == rows_by_rowid(
        str(files / "ref.duckdb"), "ref", [*QI, SA]
    )
    # the table is the release's source: a second --from into it is refused, nothing replaced
    code, _ = run_json(
        capsys, "anonymize", db, "--from", source, "--table", "people", "--output", "rel2", *args
    )
    assert code == 2


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("read_parquet((SELECT 'x'))", "its arguments must be literals"),
        ("read_parquet('x.parquet'); DROP TABLE ref", "is not one table function call"),
        ("glob('*')", "not a table function that reads files"),
        ("read_parquet('/nonexistent/*.parquet')", "cannot read --from"),
    ],
)
def test_a_bad_from_is_refused(
    files: Path, capsys: pytest.CaptureFixture[str], call: str, words: str
) -> None:
    capsys.readouterr()
    code = main(["check", str(files / "ref.duckdb"), "--from", call, "--qi", "age", "--sa", SA])
    assert code == 2
    assert words in capsys.readouterr().err
