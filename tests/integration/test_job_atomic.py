"""A job file is one transaction: a refused step (here the anonymize after a load and a hierarchy) leaves
the database exactly as it was; a job that succeeds commits every step."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ldiv_db.cli.main import main


def _state(db: Path) -> dict[str, object]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY ALL"
        ).fetchall()
        out: dict[str, object] = {}
        for schema, name in tables:
            if (schema, name) in (("ldiv", "run"), ("ldiv", "run_step")):
                continue
            ref = f'"{schema}"."{name}"'
            out[f"{schema}.{name}"] = con.execute(f"SELECT count(*), sum(hash(t)) FROM {ref} AS t").fetchone()
        return out
    finally:
        con.close()


@pytest.fixture
def setup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    csv = tmp_path / "people.csv"
    csv.write_text(
        "zip;sex;disease\n" + "\n".join(f"1007{i % 4};{'FM'[i % 2]};{'abcd'[i % 4]}" for i in range(40))
    )
    db = tmp_path / "p.duckdb"
    assert main(["load", str(db), str(csv), "--table", "people", "--sep", ";"]) == 0
    capsys.readouterr()
    return db, tmp_path


def _job(tmp: Path, load: str, qi: str) -> Path:
    h = tmp / "zip.csv"
    h.write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    job = tmp / "job.toml"
    job.write_text(
        f'database = "p.duckdb"\n[source]\ntable = "people"\nload = "{load}"\nsep = ";"\n'
        '[hierarchies]\nzip = "zip.csv"\n'
        f'[anonymize]\nqi = {qi}\nsa = "disease"\nalgorithm = "full-domain"\nl = 2\n'
        'output = "people_rel"\n[anonymize.options]\nlevels = { zip = 1 }\n'
    )
    return job


def test_a_refused_job_leaves_the_database_as_it_was(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, tmp = setup
    other = tmp / "other.csv"  # a file the job reloads the table from, without the column the QIs name
    other.write_text("zip;disease\n10070;a\n10071;b\n")
    before = _state(db)
    code = main(["run", str(_job(tmp, "other.csv", '["zip", "sex"]'))])
    err = capsys.readouterr().err
    assert code == 2 and "unknown column 'sex'" in err and "Traceback" not in err
    assert _state(db) == before  # people still has its 40 rows; no hierarchy, no release was kept


def test_a_job_commits_every_step(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    db, tmp = setup
    code = main(["run", str(_job(tmp, "people.csv", '["zip", "sex"]')), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    res = json.loads(out)
    assert res["release"]["verified"] is True and res["release"]["rows_in"] == 40
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM people_rel").fetchone() == (40,)
        assert con.execute("SELECT count(*) FROM ldiv.hierarchy").fetchone() == (1,)
    finally:
        con.close()
