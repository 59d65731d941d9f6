"""ldiv_db drops or replaces only tables its releases recorded (ldiv_db/core/ownership.py): every refusal at
CLI level exits 2, names the table and what it is, and leaves every table of the database unchanged
(row count and content hash of each, the ldiv audit tables included)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ldiv_db.cli.main import main
from ldiv_db.db import Database
from tests.integration.frames import make_table
from tests.integration.test_decomposition import synthetic

ANON = ["--qi", "zip,sex", "--sa", "disease", "--l", "2", "--quiet"]
FULL_DOMAIN = ["--algorithm", "full-domain", "--levels", "zip=1"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def anonymize(capsys: pytest.CaptureFixture[str], db: Path, output: str, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "anonymize", db, "--table", "people", *ANON, *FULL_DOMAIN, "--output", output, *extra)


def decompose(capsys: pytest.CaptureFixture[str], db: Path, output: str, *extra: str) -> tuple[int, str, str]:
    args = ["--qi", "zip,age", "--sa", "job,pay", "--l", "3,3", "--noise", "random", "--seed", "1", "--quiet"]
    return cli(
        capsys,
        "anonymize",
        db,
        "--table",
        "staff",
        "--algorithm",
        "decomposition",
        *args,
        "--output",
        output,
        *extra,
    )


def state(path: Path) -> dict[str, Any]:
    """Every table of the file (ldiv's own included): row count and a content hash."""
    db = Database.open(path, migrate=False)
    try:
        names = db.con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_catalog = current_database() AND table_type = 'BASE TABLE' ORDER BY 1, 2"
        ).fetchall()
        out = {}
        for schema, name in names:
            ref = '"' + schema.replace('"', '""') + '"."' + name.replace('"', '""') + '"'
            out[f"{schema}.{name}"] = db.con.execute(
                f"SELECT count(*), sum(hash(t)) FROM {ref} AS t"
            ).fetchone()
        return out
    finally:
        db.close()


@pytest.fixture
def world(tmp_path: Path) -> Path:
    """people (40 rows, zip hierarchy), payroll (a user table), staff (for Decomposition+)."""
    path = tmp_path / "w.duckdb"
    db = Database.open(path)
    db.con.execute(
        "CREATE TABLE people AS SELECT '1007' || (i % 4) AS zip, ['F', 'M'][i % 2 + 1] AS sex, "
        "['a', 'b', 'c', 'd'][i % 4 + 1] AS disease FROM range(40) r(i)"
    )
    db.con.execute("CREATE TABLE payroll AS SELECT i AS id, i * 100 AS salary FROM range(25) r(i)")
    make_table(db, "staff", synthetic(120, 11))
    db.close()
    h = tmp_path / "zip.csv"
    h.write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    assert main(["hierarchy", "import", str(path), "--table", "people", "--column", "zip", str(h)]) == 0
    return path


def refused(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert err.startswith("error: ") and "Traceback" not in err and "internal error" not in err
    for n in needles:
        assert n in err, f"{n!r} not in {err!r}"


# ---------------------------------------------------------------------------- anonymize --output
def test_a_user_table_is_never_replaced(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = state(world)
    for extra in ((), ("--replace",)):
        code, _, err = anonymize(capsys, world, "payroll", *extra)
        refused(code, err, "main.payroll", "a user table")
        assert "--replace" not in err  # never suggest replacing a table that is not ours
    assert state(world) == before


def test_an_own_release_is_replaced_only_with_replace(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = anonymize(capsys, world, "rel", "--json")
    assert code == 0, err
    first = json.loads(out)["release_id"]
    before = state(world)
    code, _, err = anonymize(capsys, world, "rel")
    refused(
        code, err, "release main.rel already exists", f"main.rel, written by release {first}", "--replace"
    )
    assert state(world) == before
    code, out, err = anonymize(capsys, world, "REL", "--replace", "--json")  # names fold case
    assert code == 0, err
    assert json.loads(out)["release_id"] > first


def test_a_source_table_is_named_as_one(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = Database.open(world)
    db.con.execute("CREATE TABLE people2 AS SELECT * FROM people")
    db.close()
    assert anonymize(capsys, world, "rel")[0] == 0
    before = state(world)
    code, _, err = cli(
        capsys, "anonymize", world, "--table", "people2", *ANON, "--algorithm", "mondrian", "--output", "people",
        "--replace",
    )  # fmt: skip
    refused(code, err, "main.people", "a source table (of release main.rel)")
    assert state(world) == before


def test_a_release_changed_or_recreated_by_the_user_is_not_replaced(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert anonymize(capsys, world, "rel")[0] == 0
    db = Database.open(world)
    db.con.execute("UPDATE rel SET disease = 'z' WHERE group_id = (SELECT min(group_id) FROM rel)")
    db.close()
    before = state(world)
    code, _, err = anonymize(capsys, world, "rel", "--replace")
    refused(code, err, "main.rel", "changed since", "content differs")
    assert state(world) == before
    db = Database.open(world)
    db.con.execute("DROP TABLE rel")
    db.con.execute("CREATE TABLE rel AS SELECT * FROM payroll")
    db.close()
    before = state(world)
    code, _, err = anonymize(capsys, world, "rel", "--replace")
    refused(code, err, "main.rel", "changed since", "40 rows then, 25 now")
    assert state(world) == before


def test_a_table_of_another_release_is_not_replaced(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = decompose(capsys, world, "st")
    assert code == 0, err
    before = state(world)
    code, _, err = anonymize(capsys, world, "st_qid", "--replace")
    refused(code, err, "main.st_qid", "a table of the release main.st", "decomposition")
    assert state(world) == before


def test_a_release_name_keeps_its_shape(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert decompose(capsys, world, "st")[0] == 0
    assert anonymize(capsys, world, "rel")[0] == 0
    before = state(world)
    code, _, err = anonymize(capsys, world, "st", "--replace")
    refused(code, err, "main.st", "main.st_marginals", "would not replace")
    code, _, err = decompose(capsys, world, "rel", "--replace")
    refused(code, err, "main.rel", "would not replace")
    assert state(world) == before


# ---------------------------------------------------------------------------- Decomposition+
@pytest.mark.parametrize("suffix", ["_qid", "_sa", "_marginals"])
def test_decomposition_never_replaces_a_user_table(
    world: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    db = Database.open(world)
    db.con.execute(f"CREATE TABLE out{suffix} AS SELECT * FROM payroll")
    db.close()
    before = state(world)
    code, _, err = decompose(capsys, world, "out")
    refused(code, err, f"main.out{suffix}", "a user table")
    assert "--replace" not in err
    code, _, err = decompose(capsys, world, "out", "--replace")
    refused(code, err, f"main.out{suffix}", "a user table")
    assert state(world) == before


def test_decomposition_replaces_and_appends_its_own_stream(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert decompose(capsys, world, "st")[0] == 0
    code, _, err = decompose(capsys, world, "st")
    refused(code, err, "already exists", "--replace")
    code, _, err = decompose(capsys, world, "st", "--replace")
    assert code == 0, err
    db = Database.open(world)
    make_table(db, "more", synthetic(60, 12))
    db.close()
    code, _, err = cli(capsys, "release", "append", world, "--release", "st", "--from", "more", "--quiet")
    assert code == 0, err
    # a stream table changed by the user stops the stream: the next append is refused, nothing written
    db = Database.open(world)
    db.con.execute("DELETE FROM st_marginals WHERE rowid = 0")
    db.close()
    before = state(world)
    code, _, err = cli(capsys, "release", "append", world, "--release", "st", "--from", "more", "--quiet")
    refused(code, err, "main.st_marginals", "changed since")
    assert state(world) == before


# ---------------------------------------------------------------------------- the ldiv schemas
@pytest.mark.parametrize("target", ["ldiv.run", "LDIV.release", "ldiv.new_table", "ldiv_work.x"])
def test_load_into_the_ldiv_schemas_is_refused(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    csv = tmp_path / "x.csv"
    csv.write_text("run_id,command\n1,x\n")
    before = state(world)
    code, _, err = cli(capsys, "load", world, csv, "--table", target, "--replace")
    refused(code, err, target.split(".")[1], "closed to user writes")
    assert state(world) == before
    assert anonymize(capsys, world, "rel")[0] == 0  # the audit trail still works


@pytest.mark.parametrize("target", ["ldiv.rel", "ldiv_work.rel"])
def test_anonymize_into_the_ldiv_schemas_is_refused(
    world: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    before = state(world)
    code, _, err = anonymize(capsys, world, target, "--replace")
    refused(code, err, target, "closed to user writes")
    assert state(world) == before


def test_hierarchy_commands_refuse_the_ldiv_schemas(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Database.open(world)
    db.con.execute("CREATE SCHEMA ldiv_work")
    db.con.execute("CREATE TABLE ldiv_work.t AS SELECT i AS n FROM range(10) r(i)")
    db.close()
    h = tmp_path / "h.csv"
    h.write_text("1;*\n")
    before = state(world)
    code, _, err = cli(capsys, "hierarchy", "import", world, "--table", "ldiv.run", "--column", "command", h)
    refused(code, err, "ldiv.run", "ldiv schema")
    code, _, err = cli(
        capsys, "hierarchy", "build", world, "--table", "ldiv_work.t", "--column", "n", "--intervals", "5"
    )
    refused(code, err, "ldiv_work.t", "closed to user writes")
    code, _, err = cli(
        capsys, "hierarchy", "import-categories", world, "--table", "ldiv_work.t", "--column", "n", h
    )
    refused(code, err, "ldiv_work.t", "closed to user writes")
    assert state(world) == before


# ---------------------------------------------------------------------------- job files
def _job(tmp_path: Path, world: Path, output: str, table: str = "people", load: str = "") -> Path:
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "{world.name}"\n[source]\ntable = "{table}"\n{load}'
        '[anonymize]\nqi = ["zip", "sex"]\nsa = "disease"\nalgorithm = "full-domain"\nl = 2\n'
        f'output = "{output}"\n[anonymize.options]\nlevels = {{ zip = 1 }}\n'
    )
    return job


def test_a_job_never_replaces_a_user_table(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = state(world)
    code, _, err = cli(capsys, "run", _job(tmp_path, world, "payroll"))
    refused(code, err, "main.payroll", "a user table")
    assert state(world) == before
    job = _job(tmp_path, world, "people_rel")
    assert cli(capsys, "run", job)[0] == 0
    assert cli(capsys, "run", job)[0] == 0  # its own release is replaced on a re-run


def test_a_job_cannot_load_into_the_ldiv_schema(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.csv").write_text("zip,sex,disease\n1,F,a\n")
    before = state(world)
    code, _, err = cli(capsys, "run", _job(tmp_path, world, "r", table="ldiv.run", load='load = "x.csv"\n'))
    refused(code, err, "ldiv.run", "closed to user writes")
    assert state(world) == before


# ---------------------------------------------------------------------------- load --replace
def test_load_replace_over_a_release_makes_it_a_user_table(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert anonymize(capsys, world, "rel")[0] == 0
    csv = tmp_path / "mine.csv"
    csv.write_text("a,b\n1,2\n")
    assert cli(capsys, "load", world, csv, "--table", "rel")[0] == 2  # exists: needs --replace
    code, _, err = cli(capsys, "load", world, csv, "--table", "rel", "--replace")
    assert code == 0, err
    before = state(world)
    code, _, err = anonymize(capsys, world, "rel", "--replace")
    refused(code, err, "main.rel", "a user table")
    assert state(world) == before


def test_load_refuses_a_view(world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = Database.open(world)
    db.con.execute("CREATE VIEW v AS SELECT * FROM payroll")
    db.close()
    csv = tmp_path / "x.csv"
    csv.write_text("a\n1\n")
    before = state(world)
    code, _, err = cli(capsys, "load", world, csv, "--table", "v", "--replace")
    refused(code, err, "main.v", "a view")
    assert state(world) == before


# ---------------------------------------------------------------------------- outputs that cannot be written
def test_output_in_a_read_only_attached_database(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.duckdb"
    db = Database.open(other, migrate=False)
    db.con.execute("CREATE TABLE t AS SELECT 1 AS x")
    db.close()
    before = state(world)
    code, _, err = anonymize(capsys, world, "ro.rel", "--attach", f"ro={other}")
    refused(code, err, "ro.rel", "attached read-only database")
    code, _, err = decompose(capsys, world, "ro.rel", "--attach", f"ro={other}")
    refused(code, err, "ro.rel", "attached read-only database")
    assert state(world) == before  # refused up front: not even a run was recorded


def test_output_in_a_missing_schema(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = state(world)
    code, _, err = anonymize(capsys, world, "nosuch.rel")
    refused(code, err, "nosuch.rel", "schema 'nosuch' does not exist", "CREATE SCHEMA")
    assert state(world) == before
