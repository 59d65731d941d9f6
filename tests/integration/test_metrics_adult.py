"""ARX's Loss on Adult reproduces the reference numbers of shared/datasets/README.md (ARX 3.9.2, Flash,
``Metric.createLossMetric()``), with the releases built here in SQL from ldiv.hierarchy_level."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from ldiv_db.core.catalog import Table, resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import quote
from ldiv_db.utility import Measured, MetricsOptions, compute_metrics
from tests.templates.cases_metrics import store_arx_rows

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
SA = "occupation"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def _hierarchy_rows(column: str) -> list[list[str]]:
    text = (ADULT / f"adult_hierarchy_{column}.csv").read_text(encoding="utf-8")
    return [line.split(";") for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def adult() -> Iterator[tuple[Database, Table, dict[str, int]]]:
    db = Database.open(":memory:")
    db.con.execute(
        "CREATE TABLE adult AS SELECT * FROM read_csv(?, delim = ';', header = true)",
        [str(ADULT / "adult.csv")],
    )
    source = resolve_table(db, "adult")
    ids = {c: store_arx_rows(db, source.name, c, _hierarchy_rows(c)) for c in QI}
    yield db, source, ids
    db.close()


def full_domain_release(
    db: Database, name: str, ids: dict[str, int], levels: Sequence[int], *, min_distinct: int | None = None
) -> Table:
    """Generalize every QI to its ARX level; optionally delete the groups with < min_distinct SA values."""
    cols = ", ".join(f"h{i}.label AS {quote(c)}" for i, c in enumerate(QI))
    joins = " ".join(
        f"JOIN ldiv.hierarchy_level AS h{i} ON h{i}.hierarchy_id = {ids[c]} AND h{i}.level = {lv} "
        f"AND h{i}.leaf = CAST(a.{quote(c)} AS VARCHAR)"
        for i, (c, lv) in enumerate(zip(QI, levels, strict=True))
    )
    db.con.execute(
        f"CREATE OR REPLACE TABLE {quote(name)} AS SELECT {cols}, a.{quote(SA)} FROM adult AS a {joins}"
    )
    if min_distinct is not None:
        key = ", ".join(quote(c) for c in QI)
        db.con.execute(
            f"DELETE FROM {quote(name)} WHERE ({key}) IN (SELECT ({key}) FROM {quote(name)} GROUP BY ALL "
            f"HAVING count(DISTINCT {quote(SA)}) < {min_distinct})"
        )
    return resolve_table(db, name)


def test_arx_loss_distinct3_no_suppression(adult: tuple[Database, Table, dict[str, int]]) -> None:
    db, source, ids = adult
    release = full_domain_release(db, "rel_0pct", ids, [0, 4, 1, 0, 3, 2, 2, 0])
    t0 = time.perf_counter()
    m = compute_metrics(
        db, Measured(source, release, source.columns_of(QI), source.columns_of([SA])), MetricsOptions(l=3)
    )
    seconds = time.perf_counter() - t0
    assert (m.rows, m.deleted_rows, m.classes) == (30162, 0, 28)
    assert round(m.arx_loss, 4) == 0.5422
    assert m.kl is not None
    print(f"\nAdult, 28 ECs: compute_metrics {seconds * 1000:.0f} ms, {m.to_dict()}")


def test_arx_loss_distinct3_five_percent(adult: tuple[Database, Table, dict[str, int]]) -> None:
    db, source, ids = adult
    release = full_domain_release(db, "rel_5pct", ids, [0, 3, 0, 0, 2, 1, 1, 0], min_distinct=3)
    t0 = time.perf_counter()
    m = compute_metrics(
        db, Measured(source, release, source.columns_of(QI), source.columns_of([SA])), MetricsOptions(l=3)
    )
    seconds = time.perf_counter() - t0
    assert (m.deleted_rows, m.classes) == (1102, 473)
    assert round(m.arx_loss, 4) == 0.1629
    assert m.kl is None and m.kl_note is not None  # deleted rows leave points uncovered
    print(f"\nAdult, 473 ECs: compute_metrics {seconds * 1000:.0f} ms, {m.to_dict()}")


def test_arx_loss_with_taxonomy_import() -> None:
    """The same reference number with the hierarchies stored by ldiv_db.taxonomy.import_hierarchy."""
    taxonomy = pytest.importorskip("ldiv_db.taxonomy")
    db = Database.open(":memory:")
    try:
        db.con.execute(
            "CREATE TABLE adult AS SELECT * FROM read_csv(?, delim = ';', header = true)",
            [str(ADULT / "adult.csv")],
        )
        for c in QI:
            taxonomy.import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
        source = resolve_table(db, "adult")
        ids = {
            str(r[1]): int(r[0])
            for r in db.con.execute("SELECT hierarchy_id, column_name FROM ldiv.hierarchy").fetchall()
        }
        release = full_domain_release(db, "rel_tax", ids, [0, 4, 1, 0, 3, 2, 2, 0])
        m = compute_metrics(db, Measured(source, release, source.columns_of(QI), source.columns_of([SA])))
        assert round(m.arx_loss, 4) == 0.5422
    finally:
        db.close()
