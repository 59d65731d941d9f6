"""NULL in a QI generalized through its stored hierarchy: refused up front with --null-as-value, naming
the column, the count and how to give NULL a place; algorithms that place NULL themselves still run."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ldiv_db.cli.main import main

NULLS = 58  # i % 7 == 0 for i in range(400)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "n.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE t AS SELECT i % 50 + 20 AS age, CASE WHEN i % 7 = 0 THEN NULL "
        "ELSE ['a', 'b', 'c'][i % 3 + 1] END AS race, ['x', 'y', 'z', 'w'][i % 4 + 1] AS occ FROM range(400) r(i)"
    )
    con.close()
    h = tmp_path / "race.csv"
    h.write_text("a;*\nb;*\nc;*\n")
    assert main(["hierarchy", "import", str(path), "--table", "t", "--column", "race", str(h)]) == 0
    assert (
        main(
            [
                "hierarchy",
                "build",
                str(path),
                "--table",
                "t",
                "--column",
                "age",
                "--intervals",
                "5,10,20,40,80",
            ]
        )
        == 0
    )
    return path


def _releases(path: Path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM ldiv.release").fetchone()[0])  # type: ignore[index]
    finally:
        con.close()


@pytest.mark.parametrize(
    ("algorithm", "extra"),
    [
        ("mondrian", []),
        ("lplus", []),
        ("full-domain", ["--levels", "age=1,race=1"]),
        ("optimal", []),
        ("bsgi", []),
    ],
)
def test_null_in_a_hierarchy_qi_is_refused_up_front(
    db: Path, capsys: pytest.CaptureFixture[str], algorithm: str, extra: list[str]
) -> None:
    capsys.readouterr()
    args = ["anonymize", str(db), "--table", "t", "--qi", "age,race", "--sa", "occ", "--algorithm", algorithm]
    code = main([*args, "--l", "2", "--output", "o", "--null-as-value", "--quiet", "--no-kl", *extra])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"'race' has {NULLS} NULL(s)" in err and "a hierarchy has no node for NULL" in err
    assert "coalesce(\"race\", 'unknown')" in err and "internal error" not in err
    assert _releases(db) == 0


def test_suppression_algorithms_still_place_null(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["anonymize", str(db), "--table", "t", "--qi", "age,race", "--sa", "occ", "--algorithm", "tp"]
    assert main([*args, "--l", "2", "--output", "o", "--null-as-value", "--quiet", "--no-kl"]) == 0
    assert _releases(db) == 1
