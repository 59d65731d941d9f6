"""The recorded verdict is the model that holds (issue 51, class 3), and a guarantee is never silently
weakened (class 4), through the command line.

For every algorithm on the committed fixtures: each partition the recorded verification names (the
classes, by group id and QI labels; the label classes) is checked again by ``ldiv check`` with the
recorded model and its parameters, grouped as the partition is (``--group-column group_id``, or by the
labels): the same verdict, the same class count, the same violating count (0). Where the classes are
unions of classes sharing a label vector, Unique Distinct is not what holds on them, and the record
says so. BSGI above ⌊n/n1⌋ is refused (exit 2) naming the largest feasible l unless distinct is asked
for by name; and any algorithm whose partition delivers a weaker model than the one asked for is
refused by the one rule, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from fixtures import census
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db import taxonomy
from ldiv_db.algorithms import REGISTRY, Algorithm, AnonymizeRequest, Partitioning, register
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.privacy import Distinct, Entropy
from ldiv_db.sqlgen.render import Query
from tests.integration.frames import make_table

QI = ["age", "sex", "race", "marital_status"]
SA = census.SA
CATEGORIES = {
    "Armed-Forces": 1, "Protective-serv": 1, "Priv-house-serv": 1, "Handlers-cleaners": 2,
    "Farming-fishing": 2, "Other-service": 2, "Machine-op-inspct": 2, "Transport-moving": 3,
    "Craft-repair": 3, "Tech-support": 3, "Adm-clerical": 3, "Prof-specialty": 4, "Exec-managerial": 4,
    "Sales": 4,
}  # fmt: skip

# one run per algorithm on the census fixture: (algorithm, QIs, flags)
RUNS: dict[str, tuple[list[str], list[str]]] = {
    "full-domain": (
        census.QI[:5],
        ["--l", "3", "--levels", "age=2,education=2,marital_status=1", "--suppression-limit", "0.05"],
    ),
    "bsgi": (QI, ["--l", "4"]),
    "mondrian": (QI, ["--l", "4"]),
    "tp": (QI, ["--l", "4"]),
    "tp+": (QI, ["--l", "4"]),
    "hilbert": (QI, ["--l", "4"]),
    "lplus": (QI, ["--l", "4"]),
    "topdown": (QI, ["--l", "3", "--model", "distinct-alpha", "--alpha", "1"]),
    "optimal": (QI, ["--l", "3", "--suppression-limit", "0.05"]),
    "decomposition": (QI, ["--l", "4,2"]),
    "bsgi/recursive": (QI, ["--l", "3", "--model", "recursive", "--c", "3"]),
    "mondrian/frequency": (QI, ["--l", "3", "--model", "frequency"]),
    "full-domain/entropy": (
        census.QI[:5],
        [
            "--l",
            "3",
            "--model",
            "entropy",
            "--levels",
            "age=3,education=2,marital_status=1",
            "--suppression-limit",
            "0.1",
        ],
    ),
    "lplus/sensitivity": (QI, ["--l", "4", "--sensitivity"]),
    "topdown/recursive-alpha": (QI, ["--l", "3", "--model", "recursive-alpha", "--alpha", "1", "--c", "3"]),
}
N = 3000


@pytest.fixture(scope="module")
def dbfile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("verdicts")
    path = tmp / "census.duckdb"
    db = Database.open(path)
    frame = census.generate(N, census.DEFAULT_SEED)
    make_table(db, "census", frame)
    files = census.write(tmp, df=frame)
    for col in census.COLUMNS:
        if col in files:
            taxonomy.import_hierarchy(db, "census", col, files[col])
    cats = tmp / "categories.csv"
    cats.write_text("".join(f"{v};{c}\n" for v, c in CATEGORIES.items()), encoding="utf-8")
    taxonomy.import_categories(db, "census", SA, cats)
    db.close()
    yield path


def ldiv(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip().startswith("{") else out, err


def flags(model: str, params: dict[str, Any], categories: Path) -> list[str]:
    """The ``ldiv check`` flags of a recorded model and its parameters."""
    out = ["--model", model]
    for key, value in params.items():
        if key == "l":
            out += ["--l", ",".join(str(v) for v in value)]
        elif key == "weights":
            assert value in ("uniform", "sensitivity")
            out += ["--category-weights", value]
        elif key == "thresholds":
            out += ["--thresholds", ",".join(f"{v}={t}" for v, t in value.items())]
        elif key == "sensitivity":
            out += ["--sensitivity", "true" if value else "false"]
        else:
            out += [f"--{key.replace('_', '-')}", str(value)]
    if model.endswith("-alpha"):
        out += ["--categories", str(categories)]
    return out


def test_every_algorithm_has_a_run() -> None:
    assert {name.split("/")[0] for name in RUNS} == set(REGISTRY)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_recorded_verdicts_agree_with_check(
    dbfile: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    algorithm = name.split("/")[0]
    qi, extra = RUNS[name]
    out = "rel_" + name.replace("/", "_").replace("+", "plus").replace("-", "_")
    sa = f"{SA},{census.CLASS}" if algorithm == "decomposition" else SA
    code, res, err = ldiv(
        capsys, "anonymize", str(dbfile), "--table", "census", "--qi", ",".join(qi), "--sa", sa,
        "--algorithm", algorithm, "--output", out, "--json", "--quiet", *extra,
    )  # fmt: skip
    assert code == 0, err
    parts = res["verification"]
    assert parts and res["verified"]
    # the claimed model is the one verified on the finest partition, and it is the model recorded
    assert parts[0]["model"] == res["model"] and parts[0]["params"] == res["model_params"]
    code, listed, _ = ldiv(capsys, "releases", str(dbfile), "--json")
    assert [r["verification"] for r in listed["releases"] if r["release_id"] == res["release_id"]] == [parts]
    categories = dbfile.parent / "categories.csv"
    table = f"{out}_sa" if algorithm == "decomposition" else out
    for part in parts:
        assert part["holds"] and part["violating_classes"] == 0
        if part["partition"] == "labels":
            grouping = ["--qi", ",".join(part["keys"]), "--by-labels"]
        else:  # the classes: by group id (every group id carries one label vector, checked below)
            grouping = ["--group-column", part["keys"][0]]
        code, chk, err = ldiv(
            capsys, "check", str(dbfile), "--table", table, "--sa", sa, "--null-sa-unknown", "--json",
            *grouping, *flags(part["model"], part["params"], categories),
        )  # fmt: skip
        assert code == 0, err
        assert (chk["satisfied"], chk["classes"], chk["violating_classes"]) == (
            part["holds"], part["classes"], part["violating_classes"],
        ), part["partition"]  # fmt: skip
        assert chk["model"] == part["model"] and chk["model_params"] == part["params"]
    if parts[0]["partition"] == "classes":
        db = Database.open(dbfile, mode="read")
        try:
            labels = ", ".join(f'"{c}"' for c in qi)
            pairs, groups = db.raw_rows(
                f"SELECT count(*), count(DISTINCT group_id) FROM (SELECT DISTINCT group_id, {labels} FROM {out})"
            )[0]
        finally:
            db.close()
        assert pairs == groups == parts[0]["classes"]  # so --group-column groups by the classes


def test_bsgi_claims_unique_distinct_only_where_it_holds(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BSGI's classes hold Unique Distinct; merged by their labels they hold distinct l-diversity only,
    and that is what the record claims there (``check --model unique-distinct`` by labels fails)."""
    code, res, err = ldiv(
        capsys, "anonymize", str(dbfile), "--table", "census", "--qi", ",".join(QI), "--sa", SA,
        "--algorithm", "bsgi", "--l", "4", "--output", "bsgi_ud", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    classes, labels = res["verification"]
    assert (classes["partition"], classes["model"], classes["params"]) == (
        "classes",
        "unique-distinct",
        {"l": [4]},
    )
    assert (labels["partition"], labels["model"], labels["params"]) == ("labels", "distinct", {"l": [4]})
    assert labels["classes"] < classes["classes"]  # some classes share their labels
    base = ["check", str(dbfile), "--table", "bsgi_ud", "--sa", SA, "--json", "--l", "4"]
    code, chk, _ = ldiv(capsys, *base, "--qi", ",".join(QI), "--by-labels", "--model", "unique-distinct")
    assert code == 1 and chk["violating_classes"] > 0
    by_labels = f"{chk['violating_classes']} of {chk['classes']} label classes"
    code, chk, _ = ldiv(capsys, *base, "--group-column", "group_id", "--model", "unique-distinct")
    assert code == 0 and chk["classes"] == classes["classes"]
    code, shown, _ = ldiv(capsys, "releases", str(dbfile))
    assert "unique-distinct (l=4) by group_id + QI labels, distinct (l=4) by QI labels" in shown
    page = dbfile.parent / "bsgi_ud.html"
    code, rep, err = ldiv(
        capsys, "report", str(dbfile), "--release", "bsgi_ud", "--no-kl", "--json", "--html", str(page)
    )
    assert code == 0, err
    assert rep["releases"][0]["verification"] == res["verification"]
    assert rep["releases"][0]["model"] == "unique-distinct (l=4)"
    html = page.read_text(encoding="utf-8")
    assert "unique-distinct (l=4) holds by group_id + QI labels" in html
    assert f"distinct (l=4) holds by QI labels ({labels['classes']} classes)" in html
    with capsys.disabled():
        print(
            f"\nBSGI l=4 on the census fixture ({N} rows): unique-distinct holds on its {classes['classes']} "
            f"classes, fails by labels in {by_labels}; recorded there: distinct (l=4)"
        )


# ---------------------------------------------------------------------------- class 4
def _skewed(dbfile: Path) -> tuple[int, int]:
    """Table ``skewed``: 20 rows, value 'a' on 6 of them (⌊20/6⌋ = 3)."""
    frame = pd.DataFrame({"age": list(range(30, 50)), "sa": ["a"] * 6 + list("bcdefg") * 2 + ["h", "i"]})
    db = Database.open(dbfile)
    try:
        make_table(db, "skewed", frame)
    finally:
        db.close()
    return len(frame), 6


def test_bsgi_above_the_l_property_is_refused_unless_distinct_is_named(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    n, n1 = _skewed(dbfile)
    largest = n // n1
    base = ["anonymize", str(dbfile), "--table", "skewed", "--qi", "age", "--sa", "sa", "--algorithm", "bsgi"]
    code, _, err = ldiv(capsys, *base, "--l", str(largest + 1), "--output", "sk", "--quiet")
    assert code == 2
    assert (
        f"largest feasible l for unique-distinct is ⌊n/n1⌋ = {largest}" in err and "--model distinct" in err
    )
    assert "Traceback" not in err
    code, listed, _ = ldiv(capsys, "releases", str(dbfile), "--json")
    assert all(r["name"] != "main.sk" for r in listed["releases"])  # nothing was written
    code, res, err = ldiv(
        capsys, *base, "--l", str(largest + 1), "--model", "distinct", "--output", "sk", "--json", "--quiet"
    )
    assert code == 0, err
    assert res["model"] == "distinct" and res["details"]["classes_with_repeats"] > 0
    assert [(p["partition"], p["model"], p["holds"]) for p in res["verification"]] == [
        ("classes", "distinct", True), ("labels", "distinct", True),
    ]  # fmt: skip
    code, res, err = ldiv(capsys, *base, "--l", str(largest), "--output", "sk3", "--json", "--quiet")
    assert code == 0 and res["model"] == "unique-distinct" and res["details"]["classes_with_repeats"] == 0


class _Weakening(Algorithm):
    """A test algorithm whose partition (one class of all rows) holds only distinct l-diversity, whatever
    was asked for: the pipeline must refuse it unless distinct was asked for."""

    name = "weakening-test"
    default_model = "entropy"

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t = request.db.work_table("weakening_assignment")
        request.db.run(
            Query(
                "test/weak",
                f"CREATE TEMP TABLE {t.sql()} AS SELECT rowid AS rid, 1 AS gid, false AS deleted, "
                f"false AS sa_suppressed FROM {request.inputs.table.ref.sql()}",
            )
        )
        delivered = Distinct(request.model.ls)
        assert isinstance(request.model, (Entropy, Distinct))
        return Partitioning(
            assignment=t, recoding="suppress", verify_model=delivered, shortfall="a test says so"
        )


def test_any_weaker_delivered_model_is_refused_before_writing(
    dbfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _skewed(dbfile)
    register(_Weakening)
    try:
        base = ["anonymize", str(dbfile), "--table", "skewed", "--qi", "age", "--sa", "sa", "--algorithm"]
        code, _, err = ldiv(capsys, *base, "weakening-test", "--l", "2", "--output", "weak", "--quiet")
        assert code == 2
        assert "cannot deliver entropy (l=2)" in err and "only distinct (l=2): a test says so" in err
        assert "--model distinct" in err
        code, listed, _ = ldiv(capsys, "releases", str(dbfile), "--json")
        assert all(r["name"] != "main.weak" for r in listed["releases"])
        code, res, err = ldiv(
            capsys, *base, "weakening-test", "--l", "2", "--model", "distinct", "--output", "weak", "--json",
            "--quiet",
        )  # fmt: skip
        assert code == 0, err
        assert res["model"] == "distinct" and res["verification"][0]["model"] == "distinct"
    finally:
        REGISTRY.pop(_Weakening.name)


@pytest.mark.parametrize("l", [2, 3])
def test_papers_bsgi_example_records_its_partitions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], l: int
) -> None:
    """BSGI's paper table (SPEC §2.5): l = 2 holds Unique Distinct; l = 3 is above ⌊7/3⌋ = 2, refused."""
    t = PAPER_TABLES["bsgi_table1"]
    path = tmp_path / "paper.duckdb"
    db = Database.open(path)
    make_table(db, "t", read_table(t).sort_values("row_id"))
    for col, h in t.hierarchies.items():
        taxonomy.import_hierarchy(db, "t", col, h)
    db.close()
    code, res, err = ldiv(
        capsys, "anonymize", str(path), "--table", "t", "--qi", "Gender,Postcode,Age", "--sa", "Disease",
        "--algorithm", "bsgi", "--l", str(l), "--output", "o", "--json", "--quiet",
    )  # fmt: skip
    if l == 3:
        assert code == 2 and "⌊n/n1⌋ = 2" in err
        return
    assert code == 0, err
    assert [p["model"] for p in res["verification"]] == ["unique-distinct", "distinct"]
