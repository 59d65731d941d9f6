"""A requested guarantee is kept exactly and verified on the written release, or the run is refused
(issue 11): BSGI's ``--individual-column``, full-domain's ``--suppression-limit`` and empty releases.
Every case runs through ``ldiv_db.cli.main``; expected numbers are derived independently in pandas."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.algorithms import bsgi
from ldiv_db.algorithms.full_domain import levels
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.verify.guarantees import MaxDeleted

N = 3016
QI3 = "age,sex,race"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("guarantees")
    paths = census.write(d, n=N)
    path = d / "base.duckdb"
    db = Database.open(path)
    df = census.generate(N)
    db.con.register("df", df)
    db.con.execute("CREATE TABLE census AS SELECT * FROM df")
    # one individual (pid 0) owns every second row: half of the table
    db.con.execute(
        "CREATE TABLE half AS SELECT *, CASE WHEN rowid % 2 = 0 THEN 0 ELSE rowid END AS pid FROM census"
    )
    # every individual has two rows
    db.con.execute("CREATE TABLE pairs AS SELECT *, rowid // 2 AS pid FROM census")
    for col in census.COLUMNS:
        taxonomy.import_hierarchy(db, "census", col, paths[col])
    db.close()
    return path


@pytest.fixture
def path(base: Path, tmp_path: Path) -> Iterator[Path]:
    p = tmp_path / "g.duckdb"
    shutil.copy(base, p)
    yield p


def _sql(path: Path, sql: str) -> pd.DataFrame:
    db = Database.open(path)
    try:
        return db.con.execute(sql).df()
    finally:
        db.close()


def _nothing_written(path: Path, output: str) -> None:
    assert _sql(path, f"SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = '{output}'")["n"][0] == 0
    assert _sql(path, "SELECT count(*) AS n FROM ldiv.release")["n"][0] == 0
    assert _sql(path, "SELECT count(*) AS n FROM ldiv.release_row")["n"][0] == 0
    assert _sql(path, "SELECT list(status) AS s FROM ldiv.run")["s"][0] == ["failed"]


def _bsgi(path: Path, table: str, l: int, *extra: str) -> int:
    args = ["anonymize", str(path), "--table", table, "--qi", QI3, "--sa", "occupation", "--l", str(l)]
    args += ["--algorithm", "bsgi", "--individual-column", "pid", "--output", "rel", "--quiet", "--no-kl"]
    return main([*args, *extra])


# ---------------------------------------------------------------------------- BSGI individuals
def test_bsgi_refuses_an_l_the_largest_individual_cannot_allow(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    half = _sql(path, "SELECT pid FROM half")
    top = int(half["pid"].value_counts().max())
    assert top == N // 2
    assert _bsgi(path, "half", 3) == 2
    err = capsys.readouterr().err
    assert f"l = 3 is infeasible with --individual-column 'pid': one individual has {top} of {N} rows" in err
    assert f"the largest l the individuals allow is ⌊n/n_I⌋ = ⌊{N}/{top}⌋ = {N // top}" in err
    _nothing_written(path, "rel")


def test_bsgi_refuses_when_its_greedy_cannot_keep_individuals_apart(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # l = 2 passes the bound (2 * 1508 <= 3016) but BSGI's greedy strands rows of individual 0
    assert _bsgi(path, "half", 2) == 2
    err = capsys.readouterr().err
    assert "BSGI cannot keep 'no class holds two rows of one individual' at l = 2" in err
    assert "nothing was written" in err and "verified" not in err
    _nothing_written(path, "rel")


def test_the_pipeline_verifies_individuals_on_the_written_release(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # an algorithm that forgot its own check: the pipeline still finds the repeats through ldiv.release_row
    # (distinct asked for by name: the stranded rows also repeat SA values, which refuses Unique Distinct)
    monkeypatch.setattr(bsgi, "refuse_repeated_individuals", lambda *a, **k: None)
    assert _bsgi(path, "half", 2, "--model", "distinct") == 1
    err = capsys.readouterr().err
    assert (
        "the written release breaks what the run promised: no class holds two rows of one individual ('pid')"
        in err
    )
    assert "classes hold two or more rows of one individual" in err and "nothing was published" in err
    _nothing_written(path, "rel")


def test_bsgi_refuses_unique_distinct_its_individuals_break(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within ⌊n/n1⌋, yet the rows BSGI strands to keep individuals apart land in classes that hold their
    SA value: the delivered model (distinct) is not the one asked for, so the run is refused by the one
    rule (ldiv_db/verify/guarantees.py refuse_weakened), before anything is written."""
    monkeypatch.setattr(bsgi, "refuse_repeated_individuals", lambda *a, **k: None)
    counts = _sql(path, "SELECT count(*) AS n FROM half GROUP BY occupation")["n"]
    assert 2 * int(counts.max()) <= int(counts.sum())  # not the l-Property: the up-front bound passes
    assert _bsgi(path, "half", 2) == 2
    err = capsys.readouterr().err
    assert "bsgi cannot deliver unique-distinct (l=2) on this table, only distinct (l=2)" in err
    assert "l-Property" not in err and "--model distinct" in err and "nothing was written" in err
    _nothing_written(path, "rel")


def test_bsgi_keeps_individuals_apart_and_records_it(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _bsgi(path, "pairs", 3, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"]
    # independently: every published row linked back to its source row, no group holds a pid twice
    linked = _sql(
        path,
        f"""SELECT rr.group_id, p.pid FROM ldiv.release_row rr JOIN pairs p ON p.rowid = rr.source_rowid
            WHERE rr.release_id = {out["release_id"]}""",
    )
    assert len(linked) == N and not linked.duplicated().any()
    written = _sql(path, "SELECT group_id, count(*) AS n FROM rel GROUP BY ALL").set_index("group_id")["n"]
    assert linked.groupby("group_id").size().sort_index().equals(written.sort_index())
    ver = json.loads(_sql(path, "SELECT verification FROM ldiv.release")["verification"][0])
    assert ver["guarantees"] == [
        {
            "guarantee": "no class holds two rows of one individual ('pid')",
            "kept": True,
            "found": "every class holds at most one row per individual",
        }
    ]


# ---------------------------------------------------------------------------- full-domain suppression limit
FD = ["--algorithm", "full-domain", "--l", "3", "--output", "fd", "--quiet", "--no-kl"]
FD += ["--levels", "age=2,sex=0,race=1", "--suppression-limit", "0.05"]


def _fd(path: Path, *extra: str) -> int:
    return main(["anonymize", str(path), "--table", "census", "--qi", QI3, "--sa", "occupation", *FD, *extra])


def test_full_domain_suppression_limit_is_verified_on_the_written_table(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _fd(path, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    written = int(_sql(path, "SELECT count(*) AS n FROM fd")["n"][0])
    deleted = N - written
    assert 0 < deleted <= N * 0.05 and out["rows_deleted"] == deleted
    ver = json.loads(_sql(path, "SELECT verification FROM ldiv.release")["verification"][0])
    assert ver["guarantees"][0]["kept"] and ver["guarantees"][0]["found"].startswith(f"{deleted} of {N} rows")


def test_a_broken_suppression_limit_rolls_the_release_back(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # an algorithm whose own count is wrong: it promises 0 % while deleting rows
    monkeypatch.setattr(levels, "MaxDeleted", lambda limit: MaxDeleted(Fraction(0)))
    assert _fd(path) == 1
    err = capsys.readouterr().err
    assert "breaks what the run promised: at most 0% of the rows deleted (--suppression-limit)" in err
    _nothing_written(path, "fd")


# ---------------------------------------------------------------------------- empty releases
def _lplus(path: Path, l: int, *extra: str) -> int:
    args = ["anonymize", str(path), "--table", "census", "--qi", "age,sex,race,marital_status", "--sa"]
    args += ["occupation", "--algorithm", "lplus", "--l", str(l), "--output", "lp", "--quiet", "--no-kl"]
    return main([*args, *extra])


def test_an_empty_release_is_refused_with_the_reason(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    counts = _sql(path, "SELECT occupation, count(*) AS n FROM census GROUP BY ALL")["n"]
    bound = N // int(counts.max())
    assert _lplus(path, 500) == 2
    err = capsys.readouterr().err
    assert f"the release would be empty: lplus deleted all {N} rows" in err
    assert f"l = 500 is above {bound}, the largest feasible l for frequency" in err
    assert "nothing was written" in err and "--allow-empty" in err
    _nothing_written(path, "lp")


def test_an_empty_release_when_asked_for(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _lplus(path, 500, "--allow-empty", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rows_published"] == 0 and out["rows_deleted"] == N
    assert _sql(path, "SELECT count(*) AS n FROM lp")["n"][0] == 0


def test_the_empty_rule_holds_for_every_algorithm(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # full-domain: no generalization and every row may be deleted; no group has all 13 occupations
    df = _sql(path, "SELECT * FROM census")
    assert df["occupation"].nunique() == 13 and df.groupby(QI3.split(","))["occupation"].nunique().max() < 13
    args = ["anonymize", str(path), "--table", "census", "--qi", QI3, "--sa", "occupation", "--l", "13"]
    args += ["--algorithm", "full-domain", "--levels", "age=0,sex=0,race=0", "--suppression-limit", "1"]
    assert main([*args, "--output", "fd", "--quiet"]) == 2
    assert "the release would be empty: full-domain deleted all 3016 rows" in capsys.readouterr().err
    _nothing_written(path, "fd")


@pytest.mark.parametrize(("value", "code"), [("true", 0), ('"yes"', 2)])
def test_job_file_allow_empty(path: Path, capsys: pytest.CaptureFixture[str], value: str, code: int) -> None:
    job = path.parent / "job.toml"
    job.write_text(
        f"""database = "{path.name}"
[source]
table = "census"
[anonymize]
qi = ["age", "sex", "race", "marital_status"]
sa = "occupation"
algorithm = "lplus"
l = 500
output = "lp"
kl = false
allow_empty = {value}
""",
        encoding="utf-8",
    )
    assert main(["run", str(job), "--quiet"]) == code
    err: Any = capsys.readouterr().err
    if code:
        assert "allow_empty must be true or false" in err
