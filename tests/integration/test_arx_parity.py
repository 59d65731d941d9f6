"""ARX parity on Adult (../shared/datasets/README.md reference numbers): applying ARX's optimal
transformations with the full-domain algorithm reproduces its classes, suppressed rows and Loss."""

from __future__ import annotations

from pathlib import Path

import pytest

import ldiv_db
from ldiv_db import taxonomy

from .conftest import SHARED

ADULT = SHARED / "adult"
QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
COLUMNS = [*QI, "occupation"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def adult(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not ADULT.exists():
        pytest.skip("../shared/datasets/adult is not available")
    path = tmp_path_factory.mktemp("arx") / "adult.duckdb"
    db = ldiv_db.Database.open(path)
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for col in COLUMNS:
        taxonomy.import_hierarchy(db, "adult", col, ADULT / f"adult_hierarchy_{col}.csv")
    db.close()
    return path


@pytest.mark.parametrize(
    ("levels", "limit", "model", "deleted", "classes", "loss"),
    [
        ([0, 4, 1, 0, 3, 2, 2, 0], "0", {"model": "distinct", "l": 3}, 0, 28, 0.5422),
        ([0, 3, 0, 0, 2, 1, 1, 0], "0.05", {"model": "distinct", "l": 3}, 1102, 473, 0.1629),
        ([0, 3, 0, 0, 2, 1, 1, 0], "0.05", {"model": "recursive", "l": 3, "model_options": {"c": 4}}, 1417, 454,
         0.1721),
    ],
)
def test_arx_transformations(adult: Path, levels: list[int], limit: str, model: dict, deleted: int,  # type: ignore[type-arg]
                             classes: int, loss: float) -> None:
    res = ldiv_db.anonymize(
        adult, "adult", QI, "occupation", algorithm="full-domain", output="arx", replace=True,
        levels=levels, suppression_limit=limit, **model,
    )
    assert res.verified
    assert res.rows_deleted == deleted
    assert res.groups == classes
    assert res.metrics["arx_loss"] == pytest.approx(loss, abs=5e-5)


def test_arx_entropy_transformation(adult: Path) -> None:
    # entropy-3, 5 % suppression: levels 0,2,0,0,3,1,1,0 -> 1,367 suppressed, 389 classes, Loss 0.2120
    res = ldiv_db.anonymize(
        adult, "adult", QI, "occupation", algorithm="full-domain", output="arx_e", replace=True,
        levels=[0, 2, 0, 0, 3, 1, 1, 0], suppression_limit="0.05", model="entropy", l=3,
    )
    assert (res.rows_deleted, res.groups) == (1367, 389)
    assert res.metrics["arx_loss"] == pytest.approx(0.2120, abs=5e-5)
