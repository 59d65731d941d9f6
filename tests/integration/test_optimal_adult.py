"""The optimal search on Adult (8 QIs, SA occupation) against ARX 3.9.2's Flash optimum
(../shared/datasets/README.md): the same transformation, suppressed rows, classes and Loss for distinct-3
at 0 % and 5 % and recursive (4,3) at 5 %. For entropy-3 at 5 % the exact search finds a transformation
with a lower Loss than the one ARX reports (ARX's is feasible too, and is checked here); an exhaustive
evaluation of all 4,320 nodes confirms the search's optimum. ARX's entropy-5 unit test (ARX's non-uniform
entropy metric, 4 % suppression) is reproduced with ``--metric entropy``."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db import taxonomy
from ldiv_db.algorithms.optimal import lattice

from .conftest import SHARED

ADULT = SHARED / "adult"
QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def adult(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not ADULT.exists():
        pytest.skip("../shared/datasets/adult is not available")
    path = tmp_path_factory.mktemp("optimal") / "adult.duckdb"
    db = ldiv_db.Database.open(path)
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for col in [*QI, "occupation"]:
        taxonomy.import_hierarchy(db, "adult", col, ADULT / f"adult_hierarchy_{col}.csv")
    db.close()
    return path


def _optimal(adult: Path, limit: str, **model: object) -> ldiv_db.AnonymizeResult:
    return ldiv_db.anonymize(
        adult, "adult", QI, "occupation", algorithm="optimal", output="opt", replace=True,
        suppression_limit=limit, kl=False, **model,  # type: ignore[arg-type]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("limit", "model", "levels", "deleted", "classes", "loss"),
    [
        ("0", {"model": "distinct", "l": 3}, [0, 4, 1, 0, 3, 2, 2, 0], 0, 28, 0.5422),
        ("0.05", {"model": "distinct", "l": 3}, [0, 3, 0, 0, 2, 1, 1, 0], 1102, 473, 0.1629),
        (
            "0.05",
            {"model": "recursive", "l": 3, "model_options": {"c": 4}},
            [0, 3, 0, 0, 2, 1, 1, 0],
            1417,
            454,
            0.1721,
        ),
        (
            "0",
            {"model": "recursive", "l": 3, "model_options": {"c": 4}},
            [0, 4, 1, 0, 3, 2, 2, 0],
            0,
            28,
            0.5422,
        ),
    ],
)
def test_arx_optimum(
    adult: Path,
    limit: str,
    model: dict,
    levels: list[int],
    deleted: int,
    classes: int,
    loss: float,  # type: ignore[type-arg]
) -> None:
    res = _optimal(adult, limit, **model)
    assert res.verified
    assert [res.details["levels"][q] for q in QI] == levels
    assert (res.rows_deleted, res.groups) == (deleted, classes)
    assert res.details["cost"] == pytest.approx(res.metrics["arx_loss"], abs=1e-9)
    assert res.metrics["arx_loss"] == pytest.approx(loss, abs=5e-5)
    assert res.details["lattice_size"] == 4320
    assert res.details["nodes_checked"] < 4320


def test_entropy_beats_arx(adult: Path) -> None:
    """Entropy-3, 5 %: ARX reports 0,2,0,0,3,1,1,0 (1,367 deleted, 389 classes, Loss 0.2120); entropy
    l-diversity is not monotone with suppression, and the exact search finds 0,3,0,1,2,1,1,0 (1,053 deleted,
    300 classes, Loss 0.211882), feasible and verified on the written release."""
    res = _optimal(adult, "0.05", model="entropy", l=3)
    assert res.verified
    assert [res.details["levels"][q] for q in QI] == [0, 3, 0, 1, 2, 1, 1, 0]
    assert (res.rows_deleted, res.groups) == (1053, 300)
    assert res.metrics["arx_loss"] == pytest.approx(0.211882, abs=5e-7)
    arx = ldiv_db.anonymize(
        adult, "adult", QI, "occupation", algorithm="full-domain", output="arx", replace=True, kl=False,
        levels=[0, 2, 0, 0, 3, 1, 1, 0], suppression_limit="0.05", model="entropy", l=3,
    )  # fmt: skip
    assert (arx.rows_deleted, arx.groups) == (1367, 389)
    assert res.metrics["arx_loss"] < arx.metrics["arx_loss"]


def test_entropy_optimum_is_exhaustive(adult: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every node of the lattice evaluated (no bound, no tagging): the same optimum as the search."""
    seen: dict[str, object] = {}
    original = lattice.Search.run

    def run(self: lattice.Search, *args: object, **kwargs: object) -> lattice.Result:
        found = original(self, *args, **kwargs)  # type: ignore[arg-type]
        best = None
        for node in itertools.product(*(range(h) for h in self.heights)):
            g = self.space.groups(node)
            ok = self.judge.test(g)
            if int(g.size[~ok].sum()) <= self.max_deleted:
                key = (self.metric.cost(node, g, ok), sum(node), node)
                best = key if best is None or key < best else best
        seen["exhaustive"], seen["search"] = best, found.best.key() if found.best else None
        return found

    monkeypatch.setattr(lattice.Search, "run", run)
    _optimal(adult, "0.05", model="entropy", l=3)
    assert seen["exhaustive"] == seen["search"]


def _arx_entropy_metric(levels: list[int], l: int) -> tuple[float, int]:
    """ARX's non-uniform entropy (bits) of ``levels`` with the rows of every class below entropy-l deleted,
    and the deleted rows, computed here from the CSV files with pandas: per QI, every row pays
    −log2(rows with its value / rows under its node); a deleted row also pays −log2(deleted rows under its
    node / deleted rows)."""
    data = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    nodes = {}
    for q, k in zip(QI, levels, strict=True):
        h = pd.read_csv(ADULT / f"adult_hierarchy_{q}.csv", sep=";", header=None, dtype=str)
        nodes[q] = data[q].map(dict(zip(h[0], h[k], strict=True)))
    frame = pd.DataFrame(nodes)
    key = frame[QI[0]].str.cat([frame[q] for q in QI[1:]], sep="|")
    counts = pd.crosstab(key, data["occupation"])
    p = counts.to_numpy() / counts.to_numpy().sum(axis=1, keepdims=True)
    h_class = -(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0)).sum(axis=1)
    bad = set(counts.index[h_class < math.log(l) - 1e-12])
    gone = key.isin(bad)
    total = 0.0
    for q in QI:
        total += -np.log2(data[q].map(data[q].value_counts()) / frame[q].map(frame[q].value_counts())).sum()
        hidden = frame[q][gone]
        total += -np.log2(hidden.map(hidden.value_counts()) / len(hidden)).sum()
    return float(total), int(gone.sum())


def test_arx_entropy_metric_unit_test(adult: Path) -> None:
    """ARX's own unit test (TestAnonymizationEntropyLDiversity: EntropyLDiversity(occupation, 5), 4 %
    suppression, ARX's non-monotonic non-uniform entropy metric) reports loss 228878.2039109517 at levels
    1,0,1,1,2,2,2,1: the search minimizing ``--metric entropy`` finds the same levels and loss, which an
    independent pandas computation of the metric's definition confirms."""
    res = ldiv_db.anonymize(
        adult, "adult", QI, "occupation", algorithm="optimal", output="opt", replace=True, kl=False,
        suppression_limit="0.04", model="entropy", l=5, metric="entropy",
    )  # fmt: skip
    assert res.verified
    levels = [res.details["levels"][q] for q in QI]
    assert levels == [1, 0, 1, 1, 2, 2, 2, 1]
    assert res.details["cost"] == pytest.approx(228878.2039109517, rel=1e-9)
    loss, deleted = _arx_entropy_metric(levels, 5)
    assert res.rows_deleted == deleted <= 0.04 * 30162
    assert res.details["cost"] == pytest.approx(loss, rel=1e-12)
