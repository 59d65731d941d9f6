"""A refused NULL names a fix the command takes: ``--null-as-value`` only where the command has it (check,
anonymize, risk); the commands without it (metrics, report, compare, suggest-l, the similarity attack),
a stream's later batch and BSGI's individual column each say what applies to them instead."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ldiv_db.cli.main import main

OFFERS = "pass --null-as-value"
NO_OPTION = "this command does not take NULL as a value"


@pytest.fixture
def nulls(tmp_path: Path) -> str:
    path = tmp_path / "n.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE t AS SELECT i AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE 'a' || (i % 7) END AS q1, "
        "(i * 5) % 11 AS q2, CASE WHEN i % 4 = 0 THEN NULL ELSE 's' || (i % 9) END AS s FROM range(600) r(i)"
    )
    con.execute("CREATE TABLE clean AS SELECT * FROM t WHERE q1 IS NOT NULL AND s IS NOT NULL AND id < 400")
    con.execute("CREATE TABLE batch AS SELECT * FROM t WHERE id >= 400")
    con.execute("CREATE TABLE people AS SELECT *, CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS person "
                "FROM (SELECT *, id AS i FROM clean)")  # fmt: skip
    con.close()
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


def test_a_command_with_the_option_offers_it_and_takes_it(
    nulls: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--table", "t", "--qi", "q1,q2", "--sa", "s"]
    for args in (
        ["check", nulls, *base, "--model", "distinct", "--l", "2"],
        ["risk", nulls, "--table", "t", "--qi", "q1,q2"],
    ):
        code, err = run(capsys, *args)
        assert code == 2 and OFFERS in err, err
        code, err = run(capsys, *args, "--null-as-value")
        assert code in (0, 1), err  # a verdict, not a refusal
    code, err = run(
        capsys, "anonymize", nulls, *base, "--l", "2", "--algorithm", "tp+", "--output", "r", "--quiet"
    )
    assert code == 2 and OFFERS in err, err
    code, err = run(capsys, "anonymize", nulls, *base, "--l", "2", "--algorithm", "tp+", "--output", "r",
                    "--quiet", "--null-as-value")  # fmt: skip
    assert code == 0, err


def test_a_command_without_the_option_says_so(nulls: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "anonymize", nulls, "--table", "t", "--qi", "q1,q2", "--sa", "s", "--l", "2",
                    "--algorithm", "tp+", "--output", "r", "--quiet", "--null-as-value")  # fmt: skip
    assert code == 0, err
    base = ["--qi", "q1,q2", "--sa", "s"]
    commands = [
        ["metrics", nulls, "--source", "t", "--release", "r", *base],
        ["report", nulls, "--release", "r"],
        ["compare", nulls, "--table", "t", *base, "--l", "2", "--algorithms", "tp+"],
        ["suggest-l", nulls, "--table", "t", "--sa", "s"],
        ["attack", "similarity", nulls, "--table", "r", *base, "--categories", _categories(nulls)],
    ]
    for args in commands:
        code, err = run(capsys, *args)
        assert code == 2 and "NULL values in main." in err and NO_OPTION in err and OFFERS not in err, (
            args,
            err,
        )
        with pytest.raises(SystemExit) as refused:  # and indeed it has no such option
            main([*args, "--null-as-value"])
        assert refused.value.code == 2
        assert "unrecognized arguments: --null-as-value" in capsys.readouterr().err


def test_a_stream_batch_and_an_individual_column(nulls: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "anonymize", nulls, "--table", "clean", "--qi", "q1,q2", "--sa", "s", "--l", "2",
                    "--algorithm", "decomposition", "--key", "id", "--output", "st", "--quiet")  # fmt: skip
    assert code == 0, err
    code, err = run(capsys, "release", "append", nulls, "--release", "st", "--from", "batch", "--key", "id")
    assert code == 2 and "made without --null-as-value" in err and OFFERS not in err, err
    code, err = run(capsys, "anonymize", nulls, "--table", "people", "--qi", "q1,q2", "--sa", "s", "--l", "2",
                    "--algorithm", "bsgi", "--individual-column", "person", "--output", "b", "--quiet")  # fmt: skip
    assert code == 2 and "'person' has" in err and "individual's id" in err and OFFERS not in err, err


def _categories(db: str) -> str:
    path = Path(db).with_suffix(".categories.csv")
    path.write_text("value;category\n" + "".join(f"s{i};{1 + i % 3}\n" for i in range(9)), encoding="utf-8")
    return str(path)
