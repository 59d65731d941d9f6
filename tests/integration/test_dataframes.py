"""DataFrames in and out (issue 55 item 3): ``ldiv_db.check(df, ...)`` and ``ldiv_db.anonymize(df, ...)``
on pandas, Polars and Arrow tables, the numbers compared with ``ldiv check --json`` on the same rows
loaded from a CSV file and with a brute-force count in pandas; results back as each library's table;
dbt-duckdb's session unwrapped, an unknown object refused; the package's version conventions."""

from __future__ import annotations

import importlib.metadata
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

import ldiv_db
from fixtures import census
from ldiv_db.cli.main import main

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

QI = ["age", "sex", "race"]
SA = "occupation"


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return census.generate(n=3000, seed=7)[[*QI, SA]]


def as_library(df: pd.DataFrame, library: str) -> Any:
    return {"pandas": df, "polars": pl.from_pandas(df), "arrow": pa.Table.from_pandas(df)}[library]


def brute_force(df: pd.DataFrame, l: int) -> tuple[dict[str, Any], pd.DataFrame]:
    """The statistics and the classes below distinct l, counted row by row in pandas."""
    groups = df.groupby(QI)[SA]
    sizes, distinct = groups.size(), groups.nunique()
    top = groups.agg(lambda s: s.value_counts().max())
    entropy = groups.agg(lambda s: -sum(p * math.log(p) for p in s.value_counts(normalize=True)))
    stats = {
        "classes": len(sizes),
        "rows": len(df),
        "k": int(sizes.min()),
        "distinct_l": int(distinct.min()),
        "entropy_l": math.exp(entropy.min()),
        "frequency_l": float((sizes / top).min()),
    }
    bad = sizes[distinct < l].rename("size").reset_index()
    return stats, bad


def cli_check(
    tmp_path: Path, df: pd.DataFrame, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, Any]:
    csv = tmp_path / "t.csv"
    df.to_csv(csv, index=False)
    db = str(tmp_path / "t.duckdb")
    assert main(["load", db, str(csv), "--table", "t"]) == 0
    capsys.readouterr()
    main(["check", db, "--table", "t", "--qi", ",".join(QI), "--sa", SA, "--json", *extra])
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("library", ["pandas", "polars", "arrow"])
def test_check_a_frame_equals_ldiv_check_and_brute_force(
    library: str, frame: pd.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    res = ldiv_db.check(as_library(frame, library), qi=QI, sa=SA, model="distinct", l=3, worst=None)
    want = cli_check(tmp_path, frame, capsys, "--model", "distinct", "--l", "3")
    stats, bad = brute_force(frame, 3)
    got = res.to_dict()
    for key in ("classes", "rows", "k", "distinct_l", "violating_classes", "violating_rows"):
        assert got[key] == want[key], key
    for key in ("entropy_l", "frequency_l"):
        assert got[key] == pytest.approx(want[key], rel=1e-12)
        assert got[key] == pytest.approx(stats[key], rel=1e-9)
    assert {k: got[k] for k in ("classes", "rows", "k", "distinct_l")} == {
        k: stats[k] for k in ("classes", "rows", "k", "distinct_l")
    }
    # the violating classes as a frame: every class pandas finds below l, no other
    violations = res.violations(library)
    table = violations if library == "pandas" else violations.to_pandas()
    assert list(table.columns) == [*QI, "size"]
    key = [*QI, "size"]
    assert sorted(map(tuple, table[key].values.tolist())) == sorted(map(tuple, bad[key].values.tolist()))
    assert len(bad) == got["violating_classes"] > 0
    one_row = (
        res.to_pandas() if library == "pandas" else res.to_polars() if library == "polars" else res.to_arrow()
    )
    assert len(one_row) == 1


@pytest.mark.parametrize("library", ["pandas", "polars", "arrow"])
def test_anonymize_a_frame_returns_the_verified_release(library: str, frame: pd.DataFrame) -> None:
    res = ldiv_db.anonymize(as_library(frame, library), qi=QI, sa=SA, algorithm="mondrian", l=3, seed=5)
    assert res.verified and res.rows_in == len(frame)
    release = res.to_pandas()
    assert len(release) == res.rows_published
    # the release is 3-diverse by group, counted in pandas
    assert release.groupby("group_id")[SA].nunique().min() >= 3
    assert release.groupby("group_id").ngroups == res.classes
    out = {"polars": res.to_polars, "arrow": res.to_arrow, "pandas": res.to_pandas}[library]()
    assert out.shape[0] == len(release)
    # the same frame twice: the same release (row ids are the frame's row positions, not chance)
    again = ldiv_db.anonymize(as_library(frame, library), qi=QI, sa=SA, algorithm="mondrian", l=3, seed=5)
    pd.testing.assert_frame_equal(again.to_pandas(), release)


def test_load_a_frame_keeps_its_row_order_as_row_ids(frame: pd.DataFrame, tmp_path: Path) -> None:
    db = str(tmp_path / "f.duckdb")
    loaded = ldiv_db.load(db, pl.from_pandas(frame), "people")
    assert loaded.rows == len(frame)
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("SELECT rowid, age, occupation FROM people ORDER BY rowid").fetchall()
    con.close()
    assert [(a, o) for _, a, o in rows] == list(zip(frame["age"], frame["occupation"], strict=True))
    assert [r for r, *_ in rows] == list(range(len(frame)))
    res = ldiv_db.anonymize(db, "people", QI, SA, algorithm="mondrian", l=3, output="people_release")
    assert len(res.to_pandas()) == res.rows_published  # read back from the file when asked


class _CursorWrapper:
    """dbt-duckdb's DuckDBCursorWrapper, as its environments/local.py builds it."""

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


class _ConnectionWrapper:
    def __init__(self, cursor: Any) -> None:
        self._cursor = _CursorWrapper(cursor)


def test_dbt_duckdb_session_is_unwrapped(frame: pd.DataFrame, tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "dbt.duckdb"))
    con.register("f", frame)
    con.execute("CREATE TABLE patients AS SELECT * FROM f")
    for session in (_CursorWrapper(con.cursor()), _ConnectionWrapper(con.cursor())):
        res = ldiv_db.check(session, "patients", QI, SA)
        assert res.rows == len(frame)
    res = ldiv_db.anonymize(_CursorWrapper(con), "patients", QI, SA, algorithm="mondrian", l=3, output="rel")
    assert con.execute("SELECT count(*) FROM rel").fetchone() == (res.rows_published,)
    con.close()


def test_an_unknown_object_is_refused_and_no_file_appears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ldiv_db.BadInput, match=r"cannot use a builtins\.object as a database"):
        ldiv_db.check(object(), "t", ["a"], "b")
    with pytest.raises(ldiv_db.BadInput, match="load it first"):
        ldiv_db.check(str(tmp_path / "x.duckdb"), pd.DataFrame({"a": [1]}), ["a"], "a")
    assert list(tmp_path.iterdir()) == []


def test_version_is_one_everywhere(
    tmp_path: Path, frame: pd.DataFrame, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"ldiv {ldiv_db.__version__}"
    assert importlib.metadata.version("ldiv_db") == ldiv_db.__version__
    out = subprocess.run(
        [sys.executable, "-m", "ldiv_db", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == f"ldiv {ldiv_db.__version__}"
    db = str(tmp_path / "v.duckdb")
    ldiv_db.load(db, frame, "t")
    ldiv_db.anonymize(db, "t", QI, SA, algorithm="mondrian", l=3, output="r")
    con = duckdb.connect(db, read_only=True)
    params = con.execute("SELECT params FROM ldiv.run").fetchone()
    con.close()
    assert params is not None and json.loads(params[0])["ldiv_version"] == ldiv_db.__version__
    assert (Path(ldiv_db.__file__).parent / "py.typed").exists()
