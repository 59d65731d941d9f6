"""Issue 52, "wrong or unclear answers": each case at the level the user meets it (the ``ldiv`` command, a
job file, the Python API), and the class it belongs to (types checked where a value enters, no file left
by a failed write, checks before the first write, suggest-l and check agreeing by the documented rule)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import duckdb
import pytest

import ldiv_db
from ldiv_db import api
from ldiv_db.cli.main import main
from ldiv_db.errors import BadInput


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write_csv(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def small_csv(tmp_path: Path, sa_values: int = 4, rows: int = 48) -> Path:
    """A small table: QIs a (integer) and b (text), SA s cycling through ``sa_values`` values."""
    return write_csv(
        tmp_path / "small.csv",
        "a;b;s",
        [f"{20 + i % 12};{'xyz'[i % 3]};v{i % sa_values}" for i in range(rows)],
    )


def tables(path: Path) -> set[str]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        rows = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()
    finally:
        con.close()
    return {str(r[0]) for r in rows}


# ---------------------------------------------------------------------------- --l auto with no l >= 2
def test_auto_l_where_the_best_l_is_1_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = small_csv(tmp_path, sa_values=1)
    db = tmp_path / "t.duckdb"
    assert run(capsys, "load", db, csv, "--table", "t")[0] == 0
    for algorithm, model, why in (
        ("mondrian", "distinct", "s has 1 distinct values"),
        ("tp", "frequency", "⌊n/n1⌋ = ⌊48/48⌋"),
        ("bsgi", "unique-distinct", "s has 1 distinct values"),
    ):
        code, _, err = run(
            capsys, "anonymize", db, "--table", "t", "--qi", "a,b", "--sa", "s", "--l", "auto",
            "--algorithm", algorithm, "--output", "r",
        )  # fmt: skip
        assert code == 2, err
        assert f"no l >= 2 is feasible for {model}" in err, err
        assert why in err and "the largest feasible l is 1" in err, err
        assert "got 1" not in err and "Traceback" not in err
    assert tables(db) == {"t"}


# ---------------------------------------------------------------------------- job files: TOML types
JOB = """database = "job.duckdb"
[source]
table = "t"
load = "small.csv"
[anonymize]
qi = ["a", "b"]
sa = "s"
algorithm = "{algorithm}"
model = "{model}"
output = "r"
{extra}
"""


@pytest.mark.parametrize(
    ("algorithm", "model", "extra", "key", "value"),
    [
        ("mondrian", "distinct", 'l = "3"', "anonymize.l", "'3'"),
        ("mondrian", "distinct", 'l = ["3"]', "anonymize.l entry", "'3'"),
        ("topdown", "recursive", 'l = 2\n[anonymize.model_options]\nc = "2"', "anonymize.c", "'2'"),
        ("topdown", "recursive", 'l = 2\n[anonymize.model_options]\nc = "0.5"', "anonymize.c", "'0.5'"),
        ("topdown", "distinct-alpha", 'l = 2\n[anonymize.model_options]\nalpha = "1"', "anonymize.alpha", "'1'"),
        ("full-domain", "distinct", 'l = 2\n[anonymize.options]\nsuppression_limit = "0.5"',
         "options.suppression_limit", "'0.5'"),
        ("bsgi", "unique-distinct", 'l = 2\n[anonymize.options]\nweights = { a = "2" }', "options.weights", "'2'"),
        ("bsgi", "unique-distinct", 'l = 2\n[anonymize.options]\nwindow = "3"', "options.window", "'3'"),
    ],
)  # fmt: skip
def test_job_file_numbers_written_as_text_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    algorithm: str,
    model: str,
    extra: str,
    key: str,
    value: str,
) -> None:
    small_csv(tmp_path)
    job = tmp_path / "job.toml"
    job.write_text(JOB.format(algorithm=algorithm, model=model, extra=extra), encoding="utf-8")
    code, _, err = run(capsys, "run", job)
    assert code == 2, err
    assert key in err and value in err and ("(text)" in err or "(str)" in err), err
    assert not (tmp_path / "job.duckdb").exists()


def test_job_file_fraction_as_text_and_typed_numbers_are_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TOML cannot write 1/4 as a number: a fraction is the one number a job file gives as text."""
    small_csv(tmp_path)
    write_csv(tmp_path / "b.csv", "x;*", ["y;*", "z;*"])
    job = tmp_path / "job.toml"
    extra = (
        'l = 2\n[anonymize.model_options]\nc = "7/2"\n[hierarchies]\na = { intervals = [4, 8] }\nb = "b.csv"'
    )
    job.write_text(JOB.format(algorithm="topdown", model="recursive", extra=extra), encoding="utf-8")
    code, out, err = run(capsys, "run", job, "--json")
    assert code == 0, err
    assert '"c": "7/2"' in out or "c=7/2" in out, out


# ---------------------------------------------------------------------------- a failed write leaves no file
def test_failed_run_leaves_no_database_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small_csv(tmp_path, sa_values=2)
    job = tmp_path / "job.toml"
    job.write_text(JOB.format(algorithm="mondrian", model="distinct", extra="l = 3"), encoding="utf-8")
    code, _, err = run(capsys, "run", job)
    assert code == 2 and "infeasible" in err, err  # refused at its anonymize step
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.toml", "small.csv"]


def test_failed_api_writes_leave_no_database_file(tmp_path: Path) -> None:
    csv = small_csv(tmp_path, sa_values=2)
    new = tmp_path / "new.duckdb"
    with pytest.raises(BadInput, match="unknown table 't'"):
        ldiv_db.anonymize(new, "t", "a", "s", algorithm="mondrian", output="r", l=2)
    with pytest.raises(BadInput, match="does not exist"):
        ldiv_db.load(new, tmp_path / "missing.csv", "t")
    with pytest.raises(BadInput):
        api.release_append(new, "r", "t")
    with pytest.raises(BadInput):
        ldiv_db.compare(new, "t", "a", "s", 2, algorithms="mondrian")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.csv"]
    # a file that existed before stays, with what it held
    ldiv_db.load(new, csv, "t")
    with pytest.raises(BadInput, match="infeasible"):
        ldiv_db.anonymize(new, "t", "a", "s", algorithm="mondrian", output="r", l=3)
    assert tables(new) == {"t"}
    # a successful write on a new file keeps it
    other = tmp_path / "other.duckdb"
    ldiv_db.load(other, csv, "t")
    assert tables(other) == {"t"}


def test_failed_cli_writes_leave_no_database_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = small_csv(tmp_path, sa_values=2)
    new = tmp_path / "new.duckdb"
    for args in (
        ["anonymize", new, "--table", "t", "--qi", "a", "--sa", "s", "--l", "2", "--output", "r",
         "--algorithm", "mondrian"],
        ["load", new, tmp_path / "missing.csv", "--table", "t"],
        ["hierarchy", "build", new, "--table", "t", "--column", "a", "--intervals", "5,10"],
        ["compare", new, "--table", "t", "--qi", "a", "--sa", "s", "--l", "2"],
    ):  # fmt: skip
        code, _, err = run(capsys, *args)
        assert code == 2, (args, err)
        assert not new.exists() and not Path(f"{new}.wal").exists(), args
    assert run(capsys, "load", new, csv, "--table", "t")[0] == 0
    assert new.exists()


# ---------------------------------------------------------------------------- compare checks its names first
def test_compare_checks_every_output_name_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.duckdb"
    assert run(capsys, "load", db, small_csv(tmp_path), "--table", "t")[0] == 0
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE t_cmp_tp AS SELECT 1 AS mine")
    con.close()
    code, _, err = run(
        capsys, "compare", db, "--table", "t", "--qi", "a,b", "--sa", "s", "--l", "2",
        "--algorithms", "mondrian,bsgi,tp",
    )  # fmt: skip
    assert code == 2, err
    assert "t_cmp_tp" in err and "user table" in err and "nothing was written" in err, err
    assert "leave tp out of --algorithms" in err, err
    assert tables(db) == {"t", "t_cmp_tp"}  # no release written before the refusal
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM ldiv.release").fetchall() == [(0,)]
    assert con.execute("SELECT * FROM t_cmp_tp").fetchall() == [(1,)]
    con.close()


# ---------------------------------------------------------------------------- suggest-l and check agree
def _whole_table(tmp_path: Path, name: str, counts: list[int]) -> Path:
    """One group (QI g constant) whose SA value i occurs counts[i] times."""
    rows = [f"0;v{i}" for i, c in enumerate(counts) for _ in range(c)]
    return write_csv(tmp_path / f"{name}.csv", "g;s", rows)


@pytest.mark.parametrize("copies", [1, 2, 7])
def test_suggest_l_entropy_agrees_with_check_on_equal_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], copies: int
) -> None:
    """5,000 equally frequent values: the entropy is ln 5000 (exactly, in real numbers), so entropy
    l-diversity holds for l = 5000 and no more; suggest-l must say 5000, as check does."""
    db = tmp_path / "e.duckdb"
    assert run(capsys, "load", db, _whole_table(tmp_path, "e", [copies] * 5000), "--table", "e")[0] == 0
    code, out, _ = run(capsys, "suggest-l", db, "--table", "e", "--sa", "s", "--json")
    import json

    entropy_l = next(s["l"] for s in json.loads(out)["suggestions"] if s["model"] == "entropy")
    assert entropy_l == 5000
    base = ["check", db, "--table", "e", "--qi", "g", "--sa", "s", "--model", "entropy", "--l"]
    assert run(capsys, *base, "5000")[0] == 0
    assert run(capsys, *base, "5001")[0] == 1
    code, _, err = run(
        capsys, "anonymize", db, "--table", "e", "--qi", "g", "--sa", "s", "--model", "entropy",
        "--l", "5001", "--algorithm", "mondrian", "--output", "r",
    )  # fmt: skip
    assert code == 2 and "the largest feasible l is 5000" in err, err


def test_suggest_l_entropy_agrees_with_check_on_random_counts(tmp_path: Path) -> None:
    """For random SA counts, suggest-l's entropy l passes check on the whole table and l + 1 fails."""
    rng = random.Random(52)
    seen = set()
    for i in range(12):
        counts = [rng.choice([1, 1, 2, 3, 5, 8, 40]) for _ in range(rng.randint(2, 60))]
        db = tmp_path / f"r{i}.duckdb"
        ldiv_db.load(db, _whole_table(tmp_path, f"r{i}", counts), "t")
        best = ldiv_db.suggest_l(db, "t", "s").best_for("entropy")
        n = sum(counts)
        h = math.log(n) - math.fsum(c * math.log(c) for c in counts) / n
        assert best == max(l for l in range(1, len(counts) + 2) if h >= math.log(l) - 1e-12)
        seen.add(best)
        if best >= 2:
            assert ldiv_db.check(db, "t", "g", "s", model="entropy", l=best).satisfied
        assert not ldiv_db.check(db, "t", "g", "s", model="entropy", l=best + 1).satisfied
    assert len(seen) > 3  # the cases differ


# ---------------------------------------------------------------------------- doctor lists a changed migration
def _tampered(tmp_path: Path, capsys: pytest.CaptureFixture[str], sql: str) -> Path:
    db = tmp_path / "d.duckdb"
    assert run(capsys, "load", db, small_csv(tmp_path), "--table", "t")[0] == 0
    con = duckdb.connect(str(db))
    con.execute(sql)
    con.close()
    return db


def test_doctor_lists_a_tampered_checksum_and_repairs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _tampered(tmp_path, capsys, "UPDATE ldiv.schema_migration SET checksum = 'x' WHERE version = 2")
    code, out, err = run(capsys, "doctor", db)
    assert code == 1, (out, err)  # a finding, not a failure of doctor itself
    assert "migration 0002_decomposition" in out and "checksum x in the database" in out, out
    assert "--repair would: record the shipped checksum" in out, out
    code, _, err = run(capsys, "check", db, "--table", "t", "--qi", "a", "--sa", "s")
    assert code == 2 and "does not match the shipped file" in err and "ldiv doctor" in err, err
    code, out, _ = run(capsys, "doctor", db, "--repair")
    assert code == 0 and "healthy after the repair" in out, out
    assert run(capsys, "doctor", db)[0] == 0
    assert run(capsys, "check", db, "--table", "t", "--qi", "a", "--sa", "s")[0] == 0


def test_doctor_does_not_repair_a_changed_migration_whose_objects_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _tampered(tmp_path, capsys, "UPDATE ldiv.schema_migration SET checksum = 'x' WHERE version = 2")
    con = duckdb.connect(str(db))
    table = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'ldiv' AND table_name = 'stream'"
    ).fetchall()
    con.close()
    assert table, "migration 0002 creates ldiv.stream"
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE ldiv.stream ADD COLUMN extra INTEGER")  # changed, and it holds a row
    con.execute(
        "INSERT INTO ldiv.stream (name, source, config, releases, first_release, next_key, retained) "
        "VALUES ('x', 't', '{}', 0, 0, 0, 'r')"
    )
    con.close()
    code, out, _ = run(capsys, "doctor", db, "--repair")
    assert code == 1, out
    assert "ldiv.stream holds 1 row(s)" in out, out
    assert "migration 0002_decomposition" in out and "some of its objects cannot be repaired" in out, out


def test_doctor_lists_a_migration_of_a_newer_ldiv_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _tampered(
        tmp_path,
        capsys,
        "INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (999, 'future', 'y')",
    )
    code, out, _ = run(capsys, "doctor", db)
    assert code == 1 and "migration 0999_future" in out and "upgrade ldiv_db" in out, out
    code, _, err = run(capsys, "check", db, "--table", "t", "--qi", "a", "--sa", "s")
    assert code == 2 and "does not ship" in err, err


# ---------------------------------------------------------------------------- CSV: an unbalanced quote
@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('a;b;c\n1;"2;3\n4;5\n', 2),
        ('a;b;c\n1;"2;3\n4;5;6\n', 2),
        ('a;b;c\n1;"2;3\n', 2),
        ('a;b;c\n4;5;6\n7;8;9\n1;"2;3\n4;5;6\n', 4),
    ],
)
def test_csv_with_an_unclosed_quote_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int
) -> None:
    csv = tmp_path / "q.csv"
    csv.write_text(text, encoding="utf-8")
    db = tmp_path / "q.duckdb"
    for sep in ([], ["--sep", ";"]):
        code, _, err = run(capsys, "load", db, csv, "--table", "q", *sep)
        assert code == 2, err
        assert f"line {line} has an unbalanced quote" in err, err
        assert not db.exists()


def test_csv_quoting_that_is_well_formed_still_loads(tmp_path: Path) -> None:
    csv = tmp_path / "ok.csv"
    csv.write_text('a;b;c\n1;"x;y";3\n2;"say ""hi""";4\n3;"two\nlines";5\n', encoding="utf-8")
    ldiv_db.load(tmp_path / "ok.duckdb", csv, "t")
    con = duckdb.connect(str(tmp_path / "ok.duckdb"), read_only=True)
    assert con.execute("SELECT b FROM t ORDER BY a").fetchall() == [("x;y",), ('say "hi"',), ("two\nlines",)]
    con.close()


# ---------------------------------------------------------------------------- metrics read a release as recorded
def test_metrics_of_a_recorded_release_are_the_recorded_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mondrian publishes a's group as the range '20-22'; the stored hierarchy of a has a node of that
    text covering 20 and 22 only. Read as anonymize measured it (an interval), the range covers all
    three rows, so KL is finite and LM counts 3 leaves per cell; read as the node, 21 would be covered
    by nothing (KL None, 'usually deleted by suppression' with 0 rows deleted)."""
    import json

    db = tmp_path / "m.duckdb"
    assert run(capsys, "load", db, write_csv(tmp_path / "t.csv", "a;b;s", ["20;0;x", "21;0;y", "22;0;x"]),
               "--table", "t")[0] == 0  # fmt: skip
    hier = write_csv(tmp_path / "h.csv", "20;20-22;*", ["21;odd;*", "22;20-22;*"])
    assert run(capsys, "hierarchy", "import", db, "--table", "t", "--column", "a", hier)[0] == 0
    code, out, err = run(
        capsys, "anonymize", db, "--table", "t", "--qi", "a,b", "--sa", "s", "--l", "2",
        "--algorithm", "mondrian", "--output", "r", "--json",
    )  # fmt: skip
    assert code == 0, err
    recorded = json.loads(out)["metrics"]
    assert recorded["deleted_rows"] == 0 and recorded["kl"] is not None
    assert recorded["lm"] == pytest.approx(3 * (3 - 1) / (3 - 1))  # every cell: 3 of 3 leaves, one QI of two
    code, out, err = run(capsys, "metrics", db, "--source", "t", "--release", "r", "--qi", "a,b", "--sa", "s",
                         "--json")  # fmt: skip
    assert code == 0, err
    later = json.loads(out)
    for key, value in recorded.items():
        assert later[key] == pytest.approx(value) if isinstance(value, float) else later[key] == value, key
    # read the other way on purpose: the note does not blame suppression when nothing was deleted
    m = ldiv_db.metrics(db, "t", "r", ["a", "b"], "s", interval_labels=False)
    assert m.values["kl"] is None and m.values["deleted_rows"] == 0
    assert "suppression" not in m.values["kl_note"] and "--interval-labels" in m.values["kl_note"]


# ---------------------------------------------------------------------------- release append: the stream's types
def test_release_append_refuses_a_batch_of_other_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.duckdb"
    rows = [f"{i};{30 + i % 40};{'mf'[i % 2]};{'abcd'[i % 4]};job{i % 5}" for i in range(200)]
    csv = write_csv(tmp_path / "a1.csv", "id;age;sex;race;occ", rows)
    assert run(capsys, "load", db, csv, "--table", "a1")[0] == 0
    code, _, err = run(
        capsys, "anonymize", db, "--table", "a1", "--qi", "age,sex,race", "--sa", "occ", "--l", "3",
        "--algorithm", "decomposition", "--output", "st", "--key", "id",
    )  # fmt: skip
    assert code == 0, err
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE b_text AS SELECT '62 yrs' AS age, 'm' AS sex, 'a' AS race, 'job1' AS occ")
    con.execute(
        "CREATE TABLE b_num AS SELECT 62 AS age, 'm' AS sex, 'a' AS race, 7 AS occ"
    )  # INTEGER, INTEGER
    before = con.execute("SELECT * FROM st_qid ORDER BY ALL").fetchall()
    con.close()
    code, _, err = run(capsys, "release", "append", db, "--release", "st", "--from", "b_text")
    assert code == 2, err
    assert "age is VARCHAR (the stream's is BIGINT)" in err and "nothing was written" in err, err
    code, _, err = run(capsys, "release", "append", db, "--release", "st", "--from", "b_num")
    assert code == 2, err
    assert (
        "age is INTEGER (the stream's is BIGINT)" in err and "occ is INTEGER (the stream's is VARCHAR)" in err
    )
    con = duckdb.connect(str(db), read_only=True)
    types = dict(
        con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'st_qid'"
        ).fetchall()
    )
    assert types["age"] == "BIGINT"
    assert con.execute("SELECT * FROM st_qid ORDER BY ALL").fetchall() == before
    assert con.execute("SELECT count(*) FROM ldiv.release").fetchall() == [(1,)]
    con.close()


# ---------------------------------------------------------------------------- exact bounds of integer columns
def _near_2_63(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int]:
    """700 BIGINT values B..B+699 just below 2^63 (B a multiple of 7: every interval of width 7 is full),
    the SA alternating a/b, so every interval holds both SA values."""
    base = (2**63 - 1000) // 7 * 7
    db = tmp_path / "big.duckdb"
    csv = write_csv(tmp_path / "big.csv", "v;s", [f"{base + k};{'ab'[k % 2]}" for k in range(700)])
    assert run(capsys, "load", db, csv, "--table", "t")[0] == 0
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT data_type FROM duckdb_columns() WHERE column_name = 'v'").fetchall() == [
        ("BIGINT",)
    ]
    con.close()
    return db, base


def test_interval_hierarchy_metrics_on_bigint_near_2_63_are_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Level 1 of --intervals 7,14,28 publishes each value as its interval of 7 values. Each cell then
    spans 6 of the domain's 699 (max - min), and covers 7 of its 700 leaves: NCP = 6/699 per cell,
    IL = 700 * 6/699, and LM = 700 * (7 - 1)/(700 - 1), the same. As DOUBLE, the bounds merge (ulp 2048
    near 2^63): IL and NCP were 0 beside LM 6.0."""
    import json

    db, _ = _near_2_63(tmp_path, capsys)
    assert (
        run(capsys, "hierarchy", "build", db, "--table", "t", "--column", "v", "--intervals", "7,14,28")[0]
        == 0
    )
    code, out, err = run(
        capsys, "anonymize", db, "--table", "t", "--qi", "v", "--sa", "s", "--l", "2",
        "--algorithm", "full-domain", "--levels", "v=1", "--output", "r", "--json",
    )  # fmt: skip
    assert code == 0, err
    recorded = json.loads(out)["metrics"]
    assert recorded["deleted_rows"] == 0
    assert recorded["il"] == pytest.approx(700 * 6 / 699, rel=1e-12)
    assert recorded["ncp"] == pytest.approx(6 / 699, rel=1e-12)
    assert recorded["lm"] == pytest.approx(700 * 6 / 699, rel=1e-12)
    code, out, err = run(
        capsys, "metrics", db, "--source", "t", "--release", "r", "--qi", "v", "--sa", "s", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["il"] == pytest.approx(recorded["il"], rel=1e-12)


def test_range_labels_on_bigint_near_2_63_are_read_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mondrian publishes 'lo-hi' ranges; the IL is derived here from the published labels with Python's
    exact integers: Σ over rows of (hi - lo) / (max - min)."""
    import json

    db, base = _near_2_63(tmp_path, capsys)
    code, out, err = run(
        capsys, "anonymize", db, "--table", "t", "--qi", "v", "--sa", "s", "--l", "2",
        "--algorithm", "mondrian", "--output", "m", "--json",
    )  # fmt: skip
    assert code == 0, err
    recorded = json.loads(out)["metrics"]
    con = duckdb.connect(str(db), read_only=True)
    labels = [str(r[0]) for r in con.execute("SELECT v FROM m").fetchall()]
    con.close()
    spans = []
    for label in labels:
        lo, _, hi = label.partition("-")
        spans.append(int(hi or lo) - int(lo))
    assert min(int(x.partition("-")[0]) for x in labels) == base
    expected = sum(spans) / 699
    assert expected > 0
    assert recorded["il"] == pytest.approx(expected, rel=1e-12)
