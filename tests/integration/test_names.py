"""Names stay structured end to end: outputs, loaded tables and sources whose names hold quotes, dots
or apostrophes (or live in another schema) are written, reported, replaced and read back by the name
ldiv_db prints."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ldiv_db.cli.main import main
from ldiv_db.core.catalog import split_name
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import TableRef
from tests.integration.frames import make_table
from tests.integration.test_decomposition import synthetic

# (as typed on the command line, the (schema, table) the catalog must then hold)
NAMES = [
    ('fd2 "x"', ("main", 'fd2 "x"')),
    ('"q""x"', ("main", 'q"x')),
    ("it's", ("main", "it's")),
    ('"a.b"', ("main", "a.b")),
    ("s1.rel", ("s1", "rel")),
    ('s1."x.y"', ("s1", "x.y")),
    ('"S 2"."it\'s ""q"""', ("S 2", 'it\'s "q"')),
]


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def tables(path: Path) -> set[tuple[str, str]]:
    db = Database.open(path, migrate=False)
    try:
        rows = db.con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT LIKE 'ldiv%'"
        ).fetchall()
        return {(str(s), str(t)) for s, t in rows}
    finally:
        db.close()


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "n.duckdb"
    db = Database.open(path)
    db.con.execute('CREATE SCHEMA s1; CREATE SCHEMA "S 2"')
    db.con.execute(
        "CREATE TABLE people AS SELECT '1007' || (i % 4) AS zip, ['F', 'M'][i % 2 + 1] AS sex, "
        "['a', 'b', 'c', 'd'][i % 4 + 1] AS disease FROM range(40) r(i)"
    )
    make_table(db, "staff", synthetic(120, 11))
    db.close()
    return path


@pytest.mark.parametrize(("typed", "real"), NAMES)
def test_release_outputs(
    world: Path, capsys: pytest.CaptureFixture[str], typed: str, real: tuple[str, str]
) -> None:
    args = ["anonymize", world, "--table", "people", "--qi", "zip,sex", "--sa", "disease", "--l", "2"]
    args += ["--algorithm", "mondrian", "--quiet", "--json", "--output", typed]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    shown = json.loads(out)["output"]
    assert real in tables(world)
    assert split_name(shown)[-2:] == list(real)  # the printed name reads back as the table
    code, out, err = cli(
        capsys, "check", world, "--table", shown, "--qi", "zip,sex", "--sa", "disease", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["rows"] == 40
    code, _, err = cli(capsys, *args, "--replace")
    assert code == 0, err


@pytest.mark.parametrize(("typed", "real"), NAMES[:4])
def test_decomposition_outputs(
    world: Path, capsys: pytest.CaptureFixture[str], typed: str, real: tuple[str, str]
) -> None:
    args = ["anonymize", world, "--table", "staff", "--qi", "zip,age", "--sa", "job,pay", "--l", "3,3"]
    args += ["--algorithm", "decomposition", "--noise", "random", "--seed", "1", "--quiet", "--output", typed]
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    have = tables(world)
    for suffix in ("_qid", "_sa", "_marginals"):
        assert (real[0], real[1] + suffix) in have
    con = duckdb.connect(str(world))  # new people: the stream refuses rows it already received
    con.execute("CREATE TABLE staff_new AS SELECT zip, age + 100 AS age, job, pay, unit FROM staff")
    con.close()
    code, _, err = cli(
        capsys, "release", "append", world, "--release", typed, "--from", "staff_new", "--quiet"
    )
    assert code == 0, err  # the stream is found again by the name as typed


@pytest.mark.parametrize(("typed", "real"), NAMES)
def test_loaded_tables_and_sources(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: str, real: tuple[str, str]
) -> None:
    csv = tmp_path / "p.csv"
    csv.write_text(
        "zip;sex;disease\n" + "\n".join(f"1007{i % 4};{'FM'[i % 2]};{'abcd'[i % 4]}" for i in range(40))
    )
    code, out, err = cli(capsys, "load", world, csv, "--table", typed, "--json")
    assert code == 0, err
    loaded = json.loads(out)
    assert loaded["rows"] == 40 and real in tables(world)
    assert split_name(loaded["table"])[-2:] == list(real)
    code, out, err = cli(
        capsys, "check", world, "--table", loaded["table"], "--qi", "zip", "--sa", "disease", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["rows"] == 40
    if typed == NAMES[0][0]:  # a source with a quote in its name, anonymized and its hierarchy found
        h = tmp_path / "zip.csv"
        h.write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
        code, _, err = cli(capsys, "hierarchy", "import", world, "--table", typed, "--column", "zip", h)
        assert code == 0, err
        code, out, err = cli(
            capsys, "anonymize", world, "--table", typed, "--qi", "zip,sex", "--sa", "disease", "--l", "2",
            "--algorithm", "full-domain", "--levels", "zip=1", "--quiet", "--json", "--output", "from_it",
        )  # fmt: skip
        assert code == 0, err
        assert json.loads(out)["rows_published"] == 40


def test_display_reads_back() -> None:
    for parts in (
        ("a.b", "main"),
        ('q"x', "s"),
        ('"lead', "main"),
        ("it's", "a.b"),
        ("plain", "main", "cat"),
    ):
        ref = TableRef(*parts)
        assert split_name(ref.display()) == list(ref.parts)


@pytest.mark.parametrize("bad", ['"open', "a.", ".a", '"a"b', "a..b", "a.b.c.d"])
def test_unreadable_names(world: Path, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    code, _, err = cli(capsys, "check", world, "--table", bad, "--sa", "disease")
    assert code == 2 and "cannot read the table name" in err
