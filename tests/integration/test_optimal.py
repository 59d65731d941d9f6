"""``--algorithm optimal`` through the pipeline and the CLI: on a small census-like table the published
levels are the brute-force optimum, the release is verified, the search's cost is the release's reported
metric, the search figures are in the details; bad options and infeasible requests exit 2 with a message."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.privacy import ModelParams, build_model
from ldiv_db.taxonomy import Hierarchy, import_hierarchy
from tests.reference.optimal_oracle import brute_force

AGE = [
    [str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", f"{a // 20 * 20}-{a // 20 * 20 + 19}", "*"]
    for a in range(20, 60)
]
ZIP = [
    [z, z[:4] + "*", z[:3] + "**", "*"]
    for z in ("47677", "47678", "47602", "47605", "47905", "47906", "47909")
]
SEX = [["M", "*"], ["F", "*"]]
DISEASES = ["flu", "cold", "cancer", "ulcer", "asthma"]


def _rows(n: int = 120, seed: int = 7) -> list[tuple[int, str, str, str, str]]:
    rnd = random.Random(seed)
    return [
        (
            rnd.randrange(20, 60),
            rnd.choice(ZIP)[0],
            rnd.choice("MF"),
            rnd.choice(DISEASES[: rnd.choice([2, 5])]),
            rnd.choice(["yes", "no"]),
        )
        for _ in range(n)
    ]


@pytest.fixture
def dbfile(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "opt.duckdb"
    db = Database.open(path)
    frame = pd.DataFrame(_rows(), columns=["age", "zip", "sex", "disease", "cls"])
    db.con.register("__f", frame)
    db.con.execute("CREATE TABLE people AS SELECT * FROM __f")
    db.con.unregister("__f")
    for col, rows in (("age", AGE), ("zip", ZIP), ("sex", SEX)):
        f = tmp_path / f"{col}.csv"
        f.write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="utf-8")
        import_hierarchy(db, "people", col, f)
    db.close()
    yield path


QI = ["age", "zip", "sex"]
HIERARCHIES = [Hierarchy(AGE), Hierarchy(ZIP), Hierarchy(SEX)]


@pytest.mark.parametrize(
    ("model", "opts", "limit", "metric"),
    [
        ("distinct", {"l": 2}, "0", "loss"),
        ("entropy", {"l": 2}, "0.1", "loss"),
        ("recursive", {"l": 2, "model_options": {"c": 2}}, "0.05", "lm"),
        ("k-anonymity", {"model_options": {"k": 4}}, "0.02", "dm"),
        ("distinct", {"l": 3}, "0.1", "cm"),
        ("frequency", {"l": 2}, "0.1", "aecs"),
    ],
)
def test_optimum_published_and_verified(
    dbfile: Path, model: str, opts: dict, limit: str, metric: str
) -> None:  # type: ignore[type-arg]
    extra = {"class_column": "cls"} if metric == "cm" else {}
    res = ldiv_db.anonymize(
        dbfile, "people", QI, "disease", algorithm="optimal", output="rel", model=model,
        suppression_limit=limit, metric=metric, **opts, **extra,
    )  # fmt: skip
    assert res.verified
    d = res.details
    levels = tuple(d["levels"][q] for q in QI)
    rows = [((str(a), z, s), (dis,), c) for a, z, s, dis, c in _rows()]
    kw = {k: v for k, v in opts.items() if k != "model_options"} | opts.get("model_options", {})
    expected = brute_force(
        rows, HIERARCHIES, build_model(model, 1, ModelParams(**kw)), metric, Fraction(limit)
    )
    assert expected is not None
    assert levels == expected[1]
    assert res.rows_deleted == d["deleted_rows"] == expected[2]
    reported = {"loss": "arx_loss", "lm": "lm", "dm": "dm", "cm": "cm"}.get(metric)
    if reported is not None:
        assert d["cost"] == pytest.approx(float(res.metrics[reported]), abs=1e-9)
    else:  # AECS: rows over classes, the deleted rows one class of their own
        assert d["cost"] == pytest.approx(len(rows) / (res.groups + (1 if res.rows_deleted else 0)))
    assert d["lattice_size"] == 4 * 4 * 2
    assert 0 < d["nodes_checked"] <= d["lattice_size"]
    assert d["nodes_checked"] + d["nodes_pruned_by_monotonicity"] + d["nodes_feasible_by_monotonicity"] <= 32
    assert d["seconds_search"] >= 0 and d["seconds_apply"] >= 0 and d["seconds_pipeline"] > 0
    assert d["cpu_seconds_search"] >= 0 and d["nodes_relaxed"] >= 0


def _cli(capsys: pytest.CaptureFixture[str], dbfile: Path, *args: str) -> tuple[int, str, str]:
    code = main(
        ["anonymize", str(dbfile), "--table", "people", "--qi", "age,zip,sex", "--sa", "disease",
         "--algorithm", "optimal", "--output", "o", *args]
    )  # fmt: skip
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json(dbfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, dbfile, "--l", "2", "--suppression-limit", "0.05", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["verified"] and result["algorithm"] == "optimal"
    assert set(result["details"]["levels"]) == set(QI)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--l", "2", "--suppression-limit", "1.5"], "--suppression-limit must be a number in [0, 1]"),
        (["--l", "2", "--suppression-limit", "-0.1"], "--suppression-limit must be a number in [0, 1]"),
        (["--l", "2", "--suppression-limit", "five"], "--suppression-limit must be a number"),
        (["--l", "2", "--metric", "ncp"], "--metric must be one of loss, lm, dm, aecs, cm"),
        (["--l", "2", "--metric", "cm"], "--metric cm needs the class attribute"),
        (["--l", "2", "--model", "unique-distinct"], "no full-domain transformation satisfies"),
        # above ⌊n/n1⌋ = ⌊120/45⌋: refused before any search (BSGI Cor. 3)
        (["--l", "3", "--model", "unique-distinct"], "largest feasible l for unique-distinct is ⌊n/n1⌋ = 2"),
        (["--model", "k-anonymity", "--k", "121"], "no full-domain transformation satisfies"),
    ],
)
def test_cli_errors(dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, _, err = _cli(capsys, dbfile, *args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_qi_without_hierarchy(dbfile: Path) -> None:
    with pytest.raises(BadInput, match="'cls' has no hierarchy"):
        ldiv_db.anonymize(dbfile, "people", ["age", "cls"], "disease", algorithm="optimal", output="o", l=2)
