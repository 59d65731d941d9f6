"""A refused NULL names a fix the command takes: ``--null-as-value`` only where the command has it (check,
anonymize, risk, metrics, report, compare); the commands without it (suggest-l, the similarity attack),
a stream's later batch and BSGI's individual column each say what applies to them instead. A release
made with ``--null-as-value`` is measured again (metrics, report, compare) with its run's NULL policy."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

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


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main([*args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    found: dict[str, Any] = json.loads(out.out)
    return found


FIGURES = ("rows", "classes", "ncp", "il", "lm", "dm", "cavg", "stars", "cells_suppressed")


def test_a_release_made_with_nulls_as_values_is_measured_as_it_was_made(
    nulls: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """metrics, report and compare once refused the NULLs of every such release's source: none of its
    figures could be read again. Its run's NULL policy is recorded and read back; an unrecorded table
    takes the option."""
    base = ["--qi", "q1,q2", "--sa", "s"]
    made = _json(capsys, "anonymize", nulls, "--table", "t", *base, "--l", "2", "--algorithm", "mondrian",
                 "--output", "r", "--quiet", "--null-as-value")  # fmt: skip
    again = _json(capsys, "metrics", nulls, "--source", "t", "--release", "r", *base)
    assert {k: again[k] for k in FIGURES} == {k: made["metrics"][k] for k in FIGURES}
    report = _json(capsys, "report", nulls, "--release", "r")["releases"][0]
    assert report["verified"] is True and report["table_state"] == "intact"
    con = duckdb.connect(nulls)
    con.execute("CREATE TABLE copy AS SELECT * FROM r")  # another tool's table: nothing recorded
    con.close()
    for args in (
        ["metrics", nulls, "--source", "t", "--release", "copy", *base],
        ["report", nulls, "--release", "copy", "--source", "t", *base, "--l", "2"],
        ["compare", nulls, "--table", "t", *base, "--l", "2", "--algorithms", "tp+"],
    ):
        code, err = run(capsys, *args)
        assert code == 2 and OFFERS in err and NO_OPTION not in err, (args, err)
    copied = _json(capsys, "metrics", nulls, "--source", "t", "--release", "copy", *base, "--l", "2",
                   "--null-as-value")  # fmt: skip
    same = ("ncp", "dm", "stars")
    assert {k: copied[k] for k in same} == {k: made["metrics"][k] for k in same}
    external = _json(capsys, "report", nulls, "--release", "copy", "--source", "t", *base, "--l", "2",
                     "--null-as-value")["releases"][0]  # fmt: skip
    assert external["verified"] is True, external
    compared = _json(capsys, "compare", nulls, "--table", "t", *base, "--l", "2", "--algorithms", "tp+",
                     "--null-as-value")  # fmt: skip
    assert [e["status"] for e in compared["entries"]] == ["ok"], compared


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


def _with_hierarchies(path: Path, select: str) -> str:
    """A DuckDB file of table t (``select``: its rows, integer QIs q1, q2) with interval hierarchies on
    both QIs, as l+-Optimize needs them."""
    db = str(path)
    con = duckdb.connect(db)
    con.execute(f"CREATE TABLE t AS {select}")
    con.close()
    for column in ("q1", "q2"):
        code = main(["hierarchy", "build", db, "--table", "t", "--column", column, "--intervals", "2,4,8,16"])
        assert code == 0
    return db


def test_a_null_sa_value_is_not_counted_as_a_suppressed_one(
    nulls: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --null-as-value the source's NULL SA values are published as they are: the release's figures
    once counted each as a suppressed cell (LM charged it |QI|), though no algorithm suppressed it."""
    base = ["--qi", "q1,q2", "--sa", "s"]
    made = _json(capsys, "anonymize", nulls, "--table", "t", *base, "--l", "2", "--algorithm", "tp+",
                 "--output", "r", "--quiet", "--null-as-value")["metrics"]  # fmt: skip
    con = duckdb.connect(nulls, read_only=True)
    stars, starred, null_sa = con.execute(
        "SELECT sum((q1 = '*')::INT + (q2 = '*')::INT), count(*) FILTER (WHERE q1 = '*' OR q2 = '*'), "
        "count(*) FILTER (WHERE s IS NULL) FROM r"
    ).fetchone()
    con.close()
    assert null_sa == 150  # the source's NULLs, published (tp+ suppresses QI cells only)
    assert (made["cells_suppressed"], made["rows_with_suppressed_cells"]) == (stars, starred)
    again = _json(capsys, "metrics", nulls, "--source", "t", "--release", "r", *base)
    assert (again["cells_suppressed"], again["lm"]) == (stars, made["lm"])


def test_lplus_will_not_publish_a_suppressed_sa_value_like_the_value_null(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _with_hierarchies(tmp_path / "l.duckdb", "SELECT i % 7 AS q1, (i * 5) % 11 AS q2, CASE WHEN "
                           "i % 4 = 0 THEN NULL ELSE 's' || (i % 9) END AS s, 's' || (i % 3) AS s2 FROM range(400) r(i)")  # fmt: skip
    call = ["anonymize", db, "--table", "t", "--qi", "q1,q2", "--l", "3", "--algorithm", "lplus", "--quiet",
            "--null-as-value"]  # fmt: skip
    for scheme in ("viosa", "allsa"):
        code, err = run(capsys, *call, "--sa", "s", "--suppression", scheme, "--output", f"r_{scheme}")
        assert code == 2 and "could not be told apart" in err and "--suppression viorec" in err, err
        # an SA without NULL: a published NULL is a suppressed value, counted as one
        made = _json(capsys, *call, "--sa", "s2", "--suppression", scheme, "--output", f"r2_{scheme}")
        con = duckdb.connect(db, read_only=True)
        (suppressed,) = con.execute(f"SELECT count(*) FILTER (WHERE s2 IS NULL) FROM r2_{scheme}").fetchone()
        con.close()
        assert suppressed > 0 and made["metrics"]["cells_suppressed"] == made["metrics"]["stars"] + suppressed
    code, err = run(capsys, *call, "--sa", "s", "--suppression", "viorec", "--output", "r_viorec")
    assert code == 0, err


def test_the_null_value_keeps_its_own_derived_threshold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """l+-Optimize read the NULL SA value as pandas' NaN: its sensitivity threshold was keyed 'nan', and
    the release was verified with NULL at the default θ = 1 (and a value spelled 'nan' at NULL's θ)."""
    db = _with_hierarchies(tmp_path / "s.duckdb", "SELECT i % 7 AS q1, (i * 5) % 11 AS q2, CASE WHEN "
                           "i % 4 = 0 THEN NULL ELSE 's' || (i % 9) END AS s FROM range(600) r(i)")  # fmt: skip
    capsys.readouterr()
    made = _json(capsys, "anonymize", db, "--table", "t", "--qi", "q1,q2", "--sa", "s", "--l", "3",
                 "--sensitivity", "--algorithm", "lplus", "--output", "r", "--quiet", "--null-as-value")  # fmt: skip
    # SPEC §5.1: 150 NULLs of 600 rows over 10 values (fr_avg 60): θ = 1/3 · 150/60 = 5/6
    theta = Fraction(1, 3) * Fraction(150, 60)
    for part in made["verification"]:
        assert (
            part["params"]["thresholds"]["NULL"] == str(theta) and "nan" not in part["params"]["thresholds"]
        )
        assert part["holds"] is True
    con = duckdb.connect(db, read_only=True)
    classes = con.execute(
        "SELECT count(*) FILTER (WHERE s IS NULL), count(*) FROM r GROUP BY group_id, q1, q2"
    ).fetchall()
    con.close()
    assert max(Fraction(nulls, size) for nulls, size in classes) <= theta


def _violating(db: str, table: str, keys: str, sa: str, l: int, *, null_is_value: bool) -> tuple[int, int]:
    """Brute force: the classes (grouped by ``keys``) with fewer than ``l`` distinct SA values, and their
    rows; a NULL SA value one value of its own or no value (an unknown)."""
    con = duckdb.connect(db, read_only=True)
    counted = f"count(DISTINCT coalesce({sa}, '<null>'))" if null_is_value else f"count(DISTINCT {sa})"
    n, rows = con.execute(
        f"SELECT count(*), coalesce(sum(size), 0) FROM (SELECT {counted} AS v, count(*) AS size "
        f"FROM {table} GROUP BY {keys}) WHERE v < {l}"
    ).fetchone()
    con.close()
    return int(n), int(rows)


def test_check_reads_a_releases_suppressed_sa_values_as_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """l+-Optimize's vioSA publishes a suppressed SA value as NULL. ``ldiv check --null-as-value`` counted
    those NULLs as one more value, a lenient verdict (here 3 violating classes where 12 are), and the
    refusal without it offered that very flag. Now it names --null-sa-unknown and refuses the other
    reading; with both flags the SA's NULLs are unknown (--null-sa-unknown was ignored beside
    --null-as-value)."""
    db = _with_hierarchies(tmp_path / "v.duckdb", "SELECT i % 7 AS q1, (i * 5) % 11 AS q2, 's' || (i % 3) AS s2, "
                           "CASE WHEN i % 4 = 0 THEN NULL ELSE 'k' || (i % 5) END AS k FROM range(400) r(i)")  # fmt: skip
    assert main(["anonymize", db, "--table", "t", "--qi", "q1,q2", "--sa", "s2", "--l", "3", "--algorithm",
                 "lplus", "--suppression", "viosa", "--output", "r", "--quiet", "--keep-columns", "k"]) == 0  # fmt: skip
    call = ["check", db, "--table", "r", "--qi", "q1,q2", "--sa", "s2", "--model", "distinct", "--l", "3"]
    truth = _violating(db, "r", "group_id, q1, q2", "s2", 3, null_is_value=False)
    lenient = _violating(db, "r", "group_id, q1, q2", "s2", 3, null_is_value=True)
    assert truth[0] > lenient[0]  # the case tells the two readings apart
    capsys.readouterr()
    for flags in ([], ["--null-as-value"]):
        code, err = run(capsys, *call, *flags)
        assert code == 2 and "pass --null-sa-unknown" in err and "suppressed" in err and OFFERS not in err, (
            err
        )
    for flags in (["--null-sa-unknown"], ["--null-sa-unknown", "--null-as-value"]):
        code = main([*call, *flags, "--json"])
        found = json.loads(capsys.readouterr().out)
        assert code == 1 and (found["violating_classes"], found["violating_rows"]) == truth
    # another column of the release checked as the SA: its NULLs are its own, a value with the flag
    other = ["check", db, "--table", "r", "--qi", "q1,q2", "--sa", "k", "--model", "distinct", "--l", "2"]
    code = main([*other, "--null-as-value", "--json"])
    found = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and found["violating_classes"] == _violating(db, "r", "group_id, q1, q2", "k", 2,
                                                                       null_is_value=True)[0]  # fmt: skip


def test_both_null_flags_take_qi_nulls_as_values_and_sa_nulls_as_unknown(
    nulls: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On any table, --null-as-value with --null-sa-unknown: a NULL QI value is a value of its own, a NULL
    SA value an unknown (the second flag was ignored beside the first)."""
    call = ["check", nulls, "--table", "t", "--qi", "q1,q2", "--sa", "s", "--model", "distinct", "--l", "4"]
    truth = _violating(nulls, "t", "q1, q2", "s", 4, null_is_value=False)
    as_value = _violating(nulls, "t", "q1, q2", "s", 4, null_is_value=True)
    assert truth != as_value
    capsys.readouterr()
    for flags, expected in (
        (["--null-as-value", "--null-sa-unknown"], truth),
        (["--null-as-value"], as_value),
    ):
        code = main([*call, *flags, "--json"])
        found = json.loads(capsys.readouterr().out)
        assert code in (0, 1) and (found["violating_classes"], found["violating_rows"]) == expected, flags


def _distinct_l(db: str, table: str, sa: str, *, null_is_value: bool) -> int:
    """Brute force: the fewest distinct SA values of a class (group id and labels) of a release."""
    con = duckdb.connect(db, read_only=True)
    counted = f"count(DISTINCT coalesce({sa}, '<null>'))" if null_is_value else f"count(DISTINCT {sa})"
    (found,) = con.execute(
        f"SELECT min(v) FROM (SELECT {counted} AS v FROM {table} GROUP BY group_id, q1, q2)"
    ).fetchone()
    con.close()
    return int(found)


def test_a_release_with_null_a_value_reads_suppressed_sa_values_as_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --null-as-value, a vioSA release of an SA without NULL was verified (and reported) with its
    suppressed values as one more value, NULL: distinct l 2 where the classes hold 1 value. A NULL SA
    value is the source's only where the source holds one; the SA holding NULL keeps it a value."""
    db = _with_hierarchies(tmp_path / "u.duckdb", "SELECT i % 7 AS q1, (i * 5) % 11 AS q2, 's' || (i % 3) AS s2, "
                           "CASE WHEN i % 4 = 0 THEN NULL ELSE 's' || (i % 9) END AS s FROM range(400) r(i)")  # fmt: skip
    call = ["anonymize", db, "--table", "t", "--qi", "q1,q2", "--l", "3", "--algorithm", "lplus", "--quiet",
            "--null-as-value"]  # fmt: skip
    capsys.readouterr()
    made = _json(capsys, *call, "--sa", "s2", "--suppression", "viosa", "--output", "r")
    truth = _distinct_l(db, "r", "s2", null_is_value=False)
    assert truth < _distinct_l(db, "r", "s2", null_is_value=True)  # the case tells the readings apart
    assert [part["distinct_l"] for part in made["verification"]] == [truth, truth]
    report = _json(capsys, "report", db, "--release", "r")["releases"][0]
    assert [part["distinct_l"] for part in report["verification"]] == [truth, truth]
    # the source's own NULL SA values stay a value of their own
    made = _json(capsys, *call, "--sa", "s", "--suppression", "viorec", "--output", "v")
    assert made["verification"][0]["distinct_l"] == _distinct_l(db, "v", "s", null_is_value=True)
