"""``ldiv load`` on files that cannot be loaded: a clear error naming the line and the likely cause,
exit 2, and nothing left behind (no new table; a table being replaced stays as it was)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from ldiv_db.db import Database
from tests.integration.test_ownership import state

BAD_FILES: list[tuple[str, bytes, list[str], list[str]]] = [
    # name, content, extra args, what the error must say
    (
        "latin1.csv",
        "a;b\n1;x\n2;caf\u00e9\n".encode("latin-1"),
        [],
        ["line 3 is not UTF-8", "0xe9", "Latin-1"],
    ),
    ("binary.csv", bytes(range(256)) * 8, [], ["NUL byte", "binary"]),
    ("ragged.csv", b"a,b\n1,2\n3,4\n5,6,7\n8,9\n", ["--sep", ","], ["line 4 has 3 fields", "header has 2"]),
    ("quote.csv", b'a,b,c\n1,"x,y",3\n2,"z,3\n4,"w",5\n', ["--sep", ","], ["line 3 has an unbalanced quote"]),
    ("semi.csv", b"a;b;c\n1;2;3\n4;5;6\n", ["--sep", ","], ["one column named 'a;b;c'", "pass --sep ';'"]),
    ("tabs.csv", b"a\tb\n1\t2\n", ["--sep", ";"], ["one column", "pass --sep '\\t'"]),
    ("bad.parquet", b"PAR1 this is not parquet", [], ["cannot load", "bad.parquet"]),
]


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "l.duckdb"
    db = Database.open(path)
    db.con.execute("CREATE TABLE old AS SELECT i AS id, 'v' || i AS v FROM range(30) r(i)")
    db.close()
    return path


@pytest.mark.parametrize(("name", "content", "extra", "needles"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_files_leave_nothing_behind(
    world: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes,
    extra: list[str],
    needles: list[str],
) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    before = state(world)
    for target in (["--table", "fresh"], ["--table", "old", "--replace"]):
        code, _, err = cli(capsys, "load", world, f, *target, *extra)
        assert code == 2, err
        assert err.startswith("error: ") and "internal error" not in err and "Traceback" not in err
        for n in needles:
            assert n in err, f"{n!r} not in {err!r}"
        assert state(world) == before  # no table 'fresh'; 'old' intact; no audit rows


def test_a_directory_is_not_a_file(world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = state(world)
    code, _, err = cli(capsys, "load", world, tmp_path, "--table", "t")
    assert code == 2 and "is a directory" in err and str(tmp_path) in err
    code, _, err = cli(capsys, "load", world, tmp_path / "missing.csv", "--table", "t")
    assert code == 2 and "does not exist" in err
    assert state(world) == before


def test_a_good_file_after_the_checks(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The checks refuse only what is wrong: a real one-column file, and the sniffed separator, load."""
    one = tmp_path / "one.csv"
    one.write_text("name\nann\nbob\n")
    code, _, err = cli(capsys, "load", world, one, "--table", "names")
    assert code == 0, err
    semi = tmp_path / "semi.csv"
    semi.write_text("a;b;c\n1;2;3\n4;5;6\n")
    code, out, err = cli(capsys, "load", world, semi, "--table", "old", "--replace")
    assert code == 0, err
    assert "loaded 2 rows into main.old" in out and "a BIGINT, b BIGINT, c BIGINT" in out


def test_targets_that_cannot_be_written(
    world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.duckdb"
    Database.open(other, migrate=False).close()
    good = tmp_path / "good.csv"
    good.write_text("a,b\n1,2\n")
    before = state(world)
    code, _, err = cli(capsys, "load", world, good, "--table", "nosuch.t")
    assert code == 2 and "nosuch.t" in err and "schema 'nosuch' does not exist" in err
    code, _, err = cli(capsys, "load", world, good, "--table", "ro.t", "--attach", f"ro={other}")
    assert code == 2 and "ro.t" in err and "attached read-only database" in err
    assert state(world) == before
