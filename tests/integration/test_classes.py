"""One definition of class (issue 51, class 2): every output that shows a release's class count, k and
re-identification risk — ``ldiv anonymize --json``, ``ldiv releases --json``, ``ldiv check --json`` on the
release, ``ldiv report --json`` and ``ldiv compare --json`` — shows the same figures, and they equal an
independent pandas computation on the published table grouped by (group column, QI labels); DM and CAVG
are on the same classes. A release written without its group column (``--no-group-column``) is verified
on its label classes, ``ldiv check`` groups it by labels, and a partition whose label classes break the
model is refused.

Run on the synthetic census fixture (fixtures/census.py); ``test_classes_adult.py`` repeats the
comparison on Adult (slow)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
import pytest

from fixtures import census
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

N = 1500
L = 3
QI = list(census.QI)
SA = census.SA


def expected(path: Path, table: str, keys: Sequence[str]) -> dict[str, Any]:
    """Class count, k, risk and Σ|class|² of a published table, by pandas on its rows grouped by ``keys``
    (NULL labels equal, as in SQL's GROUP BY) — not by any code of ldiv_db."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        df = con.sql(f'SELECT * FROM "{table}"').df()
    finally:
        con.close()
    sizes = df.groupby(list(keys), dropna=False).size()
    rows = int(sizes.sum())
    above = {
        f"above_{p}pct": sum(int(s) for s in sizes if Fraction(1, int(s)) > Fraction(p, 100)) / rows
        for p in (5, 10, 20)
    }
    return {
        "classes": len(sizes),
        "k": int(sizes.min()),
        "risk": {"highest": 1 / int(sizes.min()), "average": len(sizes) / rows, **above},
        "dm": int((sizes.astype("int64") ** 2).sum()),
        "rows": rows,
        "label_classes": len(df.groupby([k for k in keys if k != "group_id"], dropna=False).size()),
    }


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


def same(got: dict[str, Any], want: dict[str, Any], where: str) -> None:
    assert got["classes"] == want["classes"], where
    assert got["k"] == want["k"], where
    for key, value in want["risk"].items():
        assert got["risk"][key] == pytest.approx(value, abs=1e-12), f"{where}: risk {key}"


@pytest.fixture(scope="module")
def dbfile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("classes")
    paths = census.write(d, n=N)
    path = d / "census.duckdb"
    db = Database.open(path)
    db.con.execute(
        "CREATE TABLE census AS SELECT * FROM read_csv(?, delim=';', header=true)", [str(paths["data"])]
    )
    for c in QI:
        import_hierarchy(db, "census", c, paths[c])
    db.close()
    return path


def _anonymize(
    capsys: pytest.CaptureFixture[str], path: Path, algo: str, out: str, *extra: str
) -> tuple[int, Any, str]:
    return run(
        capsys, "anonymize", str(path), "--table", "census", "--qi", ",".join(QI), "--sa", SA,
        "--algorithm", algo, "--l", str(L), "--output", out, "--quiet", "--json", "--no-kl", "--replace", *extra,
    )  # fmt: skip


@pytest.mark.parametrize("algo", ["tp+", "bsgi", "mondrian"])
def test_every_output_shows_the_classes_of_the_published_table(
    dbfile: Path, capsys: pytest.CaptureFixture[str], algo: str
) -> None:
    out = "rel_" + algo.replace("+", "plus")
    code, anon, err = _anonymize(capsys, dbfile, algo, out)
    assert code == 0, err
    want = expected(dbfile, out, ["group_id", *QI])
    same(anon, want, "anonymize --json")
    # DM and CAVG on the same classes: Σ|class|² (nothing deleted here), |T*| / (#classes · l)
    assert anon["rows_deleted"] == 0
    assert anon["metrics"]["dm"] == want["dm"]
    assert anon["metrics"]["cavg"] == pytest.approx(want["rows"] / (want["classes"] * L))

    code, rels, _ = run(capsys, "releases", str(dbfile), "--json")
    rec = next(r for r in rels["releases"] if r["release_id"] == anon["release_id"])
    same(rec, want, "releases --json")

    code, chk, _ = run(
        capsys, "check", str(dbfile), "--table", out, "--qi", ",".join(QI), "--sa", SA, "--json"
    )
    assert code == 0 and chk["keys"] == ["group_id", *QI] and "group_id" in chk["partition"]
    same(chk, want, "check --json")

    code, rep, _ = run(capsys, "report", str(dbfile), "--release", out, "--json", "--no-kl")
    assert code == 0
    same(rep["releases"][0], want, "report --json")
    assert rep["releases"][0]["dm"] == want["dm"]
    print(
        f"{algo}: {want['classes']} classes (k {want['k']}), {want['label_classes']} label vectors, "
        f"risk average {want['risk']['average']:.4f}, above 20 % {want['risk']['above_20pct']:.4f}"
    )


def test_compare_shows_the_same_classes(
    dbfile: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, cmp, err = run(
        capsys, "compare", str(dbfile), "--table", "census", "--qi", ",".join(QI), "--sa", SA, "--l", str(L),
        "--algorithms", "tp+,bsgi,mondrian", "--json", "--no-kl",
    )  # fmt: skip
    assert code == 0, err
    for e in cmp["entries"]:
        assert e["status"] == "ok", e
        want = expected(dbfile, e["output"].split(".")[-1], ["group_id", *QI])
        same(e, want, f"compare --json {e['label']}")
        assert e["dm"] == want["dm"]


def test_check_on_other_tables_groups_by_qi_values(dbfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, chk, _ = run(
        capsys, "check", str(dbfile), "--table", "census", "--qi", "age,sex", "--sa", SA, "--json"
    )
    assert code == 0 and chk["keys"] == ["age", "sex"]
    same(chk, expected(dbfile, "census", ["age", "sex"]), "check on the source")


def test_release_without_group_column_is_verified_and_checked_on_labels(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, anon, err = _anonymize(capsys, dbfile, "tp+", "rel_nogroup", "--no-group-column")
    assert code == 0, err
    con = duckdb.connect(str(dbfile), read_only=True)
    try:
        cols = [r[0] for r in con.sql("DESCRIBE rel_nogroup").fetchall()]
        verification = json.loads(
            con.execute(
                "SELECT CAST(verification AS VARCHAR) FROM ldiv.release WHERE release_id = ?",
                [anon["release_id"]],
            ).fetchone()[0]
        )
    finally:
        con.close()
    assert cols == [*QI, SA]  # no group column
    # the label classes are the only partition the table reveals, verified on the model asked for
    [labels] = verification["partitions"]
    assert (labels["partition"], labels["keys"], labels["holds"]) == ("labels", QI, True)
    assert labels["model"] == "frequency"
    assert anon["details"]["group_column"] is None
    want = expected(dbfile, "rel_nogroup", QI)
    same(anon, want, "anonymize --json (no group column)")
    code, chk, _ = run(
        capsys, "check", str(dbfile), "--table", "rel_nogroup", "--qi", ",".join(QI), "--sa", SA,
        "--model", "frequency", "--l", str(L), "--json",
    )  # fmt: skip
    assert code == 0 and chk["keys"] == QI and chk["satisfied"] is True
    same(chk, want, "check --json (no group column)")
    code, rep, _ = run(capsys, "report", str(dbfile), "--release", "rel_nogroup", "--json", "--no-kl")
    same(rep["releases"][0], want, "report --json (no group column)")


def test_label_classes_that_break_the_model_are_refused(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BSGI's groups hold l distinct values each (unique-distinct); where two groups share their labels,
    # the merged label class repeats a value
    code, _, err = _anonymize(capsys, dbfile, "bsgi", "rel_bsgi_g")
    assert code == 0, err
    want = expected(dbfile, "rel_bsgi_g", ["group_id", *QI])
    assert want["label_classes"] < want["classes"]  # the case exists on this table
    code, out, err = _anonymize(capsys, dbfile, "bsgi", "rel_bsgi_nogroup", "--no-group-column")
    print(err)
    assert code == 2 and out == ""
    assert "unique-distinct" in err and "label classes" in err and "violate" in err
    assert "keep the group column" in err and "Traceback" not in err
    con = duckdb.connect(str(dbfile), read_only=True)
    try:
        tables = {r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall()}
    finally:
        con.close()
    assert "rel_bsgi_nogroup" not in tables  # nothing was published


def test_no_group_column_is_refused_where_the_groups_are_a_table(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _anonymize(capsys, dbfile, "decomposition", "rel_dec", "--no-group-column")
    assert code == 2 and "no-group-column" in err


def test_job_file_writes_a_release_without_group_column(
    dbfile: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "{dbfile}"\n[source]\ntable = "census"\n[anonymize]\nqi = {json.dumps(QI)}\n'
        f'sa = "{SA}"\nalgorithm = "mondrian"\nl = {L}\noutput = "rel_job"\nkl = false\nno_group_column = true\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "run", str(job), "--quiet")
    assert code == 0, err
    con = duckdb.connect(str(dbfile), read_only=True)
    try:
        cols = [r[0] for r in con.sql("DESCRIBE rel_job").fetchall()]
    finally:
        con.close()
    assert cols == [*QI, SA]
    code, chk, _ = run(
        capsys, "check", str(dbfile), "--table", "rel_job", "--qi", ",".join(QI), "--sa", SA, "--json"
    )
    same(chk, expected(dbfile, "rel_job", QI), "check on a job's release without group column")
