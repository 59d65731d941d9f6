"""ldiv_db's dbt package (integrations/dbt) in a real dbt project (tests/dbt/project), on DuckDB and on
the throw-away PostgreSQL server (issue 55 item 1): the generic tests pass on an l-diverse release and
fail on the raw table, each with as many failing rows (the violating classes) as `ldiv check --json`
counts, and the rows are the classes it names; on DuckDB the Python model publishes a verified release
with dbt's connection, recorded in ldiv.release, and a rerun replaces it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import duckdb
import pytest

from fixtures import census
from ldiv_db.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).parent / "project"
QI = ["age", "sex", "race"]
SA = "occupation"


def dbt_executable() -> Path:
    exe = Path(sys.executable).parent / "dbt"
    if not exe.exists():
        if os.environ.get("LDIV_REQUIRE_DBT") == "1":
            pytest.fail("dbt is required but not installed in this venv (make test-dbt installs it)")
        pytest.skip("dbt is not installed in this venv; make test-dbt runs these tests")
    return exe


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The project, copied (dbt writes target/, logs/, dbt_packages/ beside it), its local package entry
    pointing at this checkout's integrations/dbt."""
    dest = tmp_path / "project"
    shutil.copytree(PROJECT, dest)
    (dest / "packages.yml").write_text(f"packages:\n  - local: {ROOT / 'integrations' / 'dbt'}\n")
    return dest


def dbt(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [str(dbt_executable()), *args, "--project-dir", str(project), "--profiles-dir", str(project)]
    return subprocess.run(
        cmd, cwd=project, env={**os.environ, **env}, capture_output=True, text=True, check=False
    )


def patients_csv(tmp_path: Path) -> Path:
    frame = census.generate(n=3000, seed=3)[[*QI, SA]]
    csv = tmp_path / "patients.csv"
    frame.to_csv(csv, index=False)
    return csv


def check_flags(test: str, kwargs: dict[str, Any], tmp_path: Path) -> list[str]:
    """The `ldiv check` flags of the model a generic test of the package names, from its arguments."""
    if test == "k_anonymity":
        return ["--model", "k-anonymity", "--k", str(kwargs["k"])]
    if test == "l_diversity":
        flags = ["--model", kwargs.get("variant", "distinct"), "--l", str(kwargs["l"])]
        return flags + (["--c", str(kwargs["c"])] if "c" in kwargs else [])
    if test == "l_plus":
        thresholds = ",".join(f"{v}={t}" for v, t in kwargs.get("thresholds", {}).items())
        return ["--model", "lplus", "--l", str(kwargs["l"]), "--thresholds", thresholds]
    assert test == "l_alpha", test
    cats = tmp_path / "categories.csv"
    cats.write_text("".join(f"{v};{c}\n" for v, c in kwargs["categories"].items()))
    variant = kwargs.get("variant", "distinct")
    flags = ["--model", f"{variant}-alpha", "--l", str(kwargs["l"]), "--alpha", str(kwargs["alpha"])]
    return flags + ["--categories", str(cats)] + (["--c", str(kwargs["c"])] if "c" in kwargs else [])


def ldiv_check(db: str, capsys: Any, flags: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    main(["check", db, "--table", "main.patients", "--qi", ",".join(QI), "--sa", SA, "--null-as-value",
          "--worst", "1000000", "--json", *flags])  # fmt: skip
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def assert_raw_tests_fail_as_check_counts(
    project: Path, target: str, env: dict[str, str], db: str, tmp_path: Path, capsys: Any, read_rows: Any
) -> None:
    """Each raw-table test fails with as many rows as ldiv check counts violating classes for its model;
    the stored rows of the distinct test are the classes ldiv check names."""
    res = dbt(project, env, "test", "--target", target, "--select", "tag:raw", "--store-failures")
    assert res.returncode == 1, res.stdout[-3000:]
    results = json.loads((project / "target" / "run_results.json").read_text())["results"]
    nodes = json.loads((project / "target" / "manifest.json").read_text())["nodes"]
    assert len(results) == 7
    models = set()
    for r in results:
        meta = nodes[r["unique_id"]]["test_metadata"]
        verdict = ldiv_check(db, capsys, check_flags(meta["name"], meta["kwargs"], tmp_path))
        models.add(verdict["model"])
        assert r["status"] == "fail", (r["unique_id"], r.get("message"))
        assert r["failures"] == verdict["violating_classes"] > 0, r["unique_id"]
        if verdict["model"] == "distinct":
            rows = read_rows(r["relation_name"])
            width = len(QI)
            got = sorted(((*row[:width], int(row[width])) for row in rows), key=repr)
            named = [(*(w["key"][c] for c in QI), w["size"]) for w in verdict["worst"]]
            assert got == sorted(named, key=repr)
    assert len(models) == 7  # k-anonymity, the four l-diversity variants, lplus, entropy-alpha


def test_dbt_build_on_duckdb(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "warehouse.duckdb")
    assert main(["load", db, str(patients_csv(tmp_path)), "--table", "patients"]) == 0
    env = {"LDIV_DBT_DUCKDB": db}
    assert dbt(project, env, "deps").returncode == 0
    for run in (1, 2):  # a rerun replaces the release
        res = dbt(project, env, "build", "--target", "duckdb", "--exclude", "tag:raw")
        assert res.returncode == 0, res.stdout[-3000:]
        assert "PASS=3" in res.stdout, res.stdout[-2000:]  # the model and its two tests
        capsys.readouterr()
        main(["releases", db, "--json"])
        releases = json.loads(capsys.readouterr().out)["releases"]
        assert [r["name"].split(".")[-1] for r in releases] == ["patients_release_ldiv"] * run
        assert releases[0]["verified"] is True and releases[0]["table_state"] == "intact"
    assert releases[1]["table_state"] == "superseded"
    con = duckdb.connect(db, read_only=True)
    n = con.execute("SELECT count(*) FROM main.patients_release").fetchone()
    con.close()
    assert n == (releases[0]["rows_published"],)

    def read_rows(relation: str) -> list[tuple[Any, ...]]:
        con = duckdb.connect(db, read_only=True)
        try:
            return con.execute(f"SELECT * FROM {relation}").fetchall()
        finally:
            con.close()

    assert_raw_tests_fail_as_check_counts(project, "duckdb", env, db, tmp_path, capsys, read_rows)


@pytest.mark.postgres
def test_dbt_build_on_postgres(
    project: Path, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import psycopg

    assert main(["load", pg_url, str(patients_csv(tmp_path)), "--table", "patients"]) == 0
    assert main(["anonymize", pg_url, "--table", "patients", "--qi", ",".join(QI), "--sa", SA,
                 "--algorithm", "mondrian", "--l", "3", "--output", "patients_release_pg"]) == 0  # fmt: skip
    url = urlsplit(pg_url)
    env = {
        "LDIV_DBT_PG_HOST": url.hostname or "localhost",
        "LDIV_DBT_PG_PORT": str(url.port or 5432),
        "LDIV_DBT_PG_USER": unquote(url.username or ""),
        "LDIV_DBT_PG_PASSWORD": unquote(url.password or ""),
        "LDIV_DBT_PG_DBNAME": url.path.lstrip("/"),
    }
    assert dbt(project, env, "deps").returncode == 0
    res = dbt(project, env, "build", "--target", "postgres", "--exclude", "tag:raw")
    assert res.returncode == 0, res.stdout[-3000:]
    assert "PASS=2" in res.stdout, res.stdout[-2000:]  # the published release's two tests

    def read_rows(relation: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(pg_url) as con:
            return con.execute(f"SELECT * FROM {relation}").fetchall()

    assert_raw_tests_fail_as_check_counts(project, "postgres", env, pg_url, tmp_path, capsys, read_rows)
