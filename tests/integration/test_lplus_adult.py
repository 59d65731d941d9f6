"""l+-Optimize on Adult with the ARX hierarchies (slow): proven optima over the 487,080 cuts of the 6 QIs,
releases that pass ``check`` with the thresholds used, the full-subtree optimum never worse than the
full-domain one, the full-domain optimum of the 7 QIs equal to an exhaustive evaluation of all 2,160 level
vectors, and the anytime search of the 7 QIs with a proven gap."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pandas as pd
import pytest

import ldiv_db
from ldiv_db import taxonomy
from ldiv_db.db import Database
from tests.integration.conftest import SHARED
from tests.reference.lplus_levels import all_level_costs

pytestmark = pytest.mark.slow
ADULT = SHARED / "adult"
QI6 = ["education", "native-country", "workclass", "marital-status", "sex", "race"]
QI7 = ["age", *QI6]


@pytest.fixture(scope="module")
def db() -> Iterator[Database]:
    if not (ADULT / "adult.csv").exists():
        pytest.skip("../shared/datasets/adult is not available")
    database = Database.open(":memory:")
    ldiv_db.load(database, ADULT / "adult.csv", "adult", sep=";")
    for col in QI7:
        taxonomy.import_hierarchy(database, "adult", col, ADULT / f"adult_hierarchy_{col}.csv")
    yield database
    database.close()


def _run(
    db: Database, qi: list[str], metric: str, scheme: str, l_value: int, **opts: object
) -> ldiv_db.AnonymizeResult:
    return ldiv_db.anonymize(
        db,
        "adult",
        qi,
        "occupation",
        algorithm="lplus",
        output="lp_out",
        replace=True,
        l=l_value,
        metric=metric,
        suppression=scheme,
        class_column="salary-class" if metric == "cm" else None,
        **opts,
    )


CASES = (
    [("lm", s, 4) for s in ("nosupp", "viosa", "allsa", "viorec", "allrec")]
    + [(m, s, 4) for m in ("dm", "cm") for s in ("nosupp", "viorec", "allrec")]
    + [("lm", "viosa", 2), ("dm", "allrec", 6), ("cm", "viorec", 3)]
)


@pytest.mark.parametrize(("metric", "scheme", "l_value"), CASES)
def test_six_qis_proven_optimum(db: Database, metric: str, scheme: str, l_value: int) -> None:
    res = _run(db, QI6, metric, scheme, l_value)
    d = res.details
    assert d["cuts_total"] == 487_080
    assert d["optimal"] is True and Fraction(d["lower_bound"]) == Fraction(d["cost_exact"])
    assert 0 < d["pruned_share"] < 1 and d["cuts_visited"] >= 1
    assert res.verified
    chk = ldiv_db.check(db, "lp_out", QI6, "occupation", model="lplus", l=l_value, null_sa_unknown=True)
    assert chk.satisfied
    if metric == "dm":
        assert res.metrics["dm"] == pytest.approx(float(Fraction(d["cost_exact"])))
    fd = _run(db, QI6, metric, scheme, l_value, space="full-domain")
    assert fd.details["cuts_total"] == 4 * 3 * 3 * 3 * 2 * 2
    assert Fraction(d["cost_exact"]) <= Fraction(fd.details["cost_exact"])


@pytest.mark.parametrize(
    ("metric", "scheme", "setting"), [("dm", "allrec", "dm-allrec"), ("lm", "viosa", "lm-viosa")]
)
def test_seven_qis_full_domain_equals_exhaustive(
    db: Database, metric: str, scheme: str, setting: str
) -> None:
    res = _run(db, QI7, metric, scheme, 4, space="full-domain")
    assert res.details["cuts_total"] == 2160 and res.details["optimal"]
    frame = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    hierarchies = [taxonomy.parse_arx(ADULT / f"adult_hierarchy_{q}.csv") for q in QI7]
    costs = all_level_costs(frame, QI7, "occupation", hierarchies, 4, setting)
    assert len(costs) == 2160
    assert Fraction(res.details["cost_exact"]) == min(c for c in costs.values() if c is not None)
    assert res.verified


def test_seven_qis_anytime_gap(db: Database) -> None:
    res = _run(db, QI7, "dm", "allrec", 4, time_limit=15, warm_start=True)
    d = res.details
    assert d["cuts_total"] == 487_080 * 11_881_377
    assert res.verified
    lower = Fraction(d["lower_bound"])
    assert lower <= Fraction(d["cost_exact"])
    assert d["gap"] == pytest.approx(float(Fraction(d["cost_exact"]) - lower))
    # never worse than the full-domain optimum it started from
    assert Fraction(d["cost_exact"]) <= Fraction(d["warm_start"]["cost"])
