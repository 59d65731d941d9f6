"""An algorithm that declares itself ``order_free`` reads the source as it is, without the seeded copy
(ldiv_db/commands/anonymize.py: ``_run``; decision 0033, Round 4). It may only when its release is a
function of the rows' values alone: here every such algorithm runs on a table and on the same rows
permuted (other row ids, another row order), with one seed, and the two releases must be the same — the
published rows in the same order with the same group ids, every source row in the group of its image
(the private link), the same counts and metrics.

The control: TP, which breaks ties by row order (through the seeded copy), gives another partition of
the permuted rows, so the comparison can tell two releases apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.algorithms import REGISTRY
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query, TableRef

N = 1500
QI = ["age", "sex", "race", "marital_status", "education"]
SEED = 4242
ORDER_FREE = sorted(name for name, cls in REGISTRY.items() if cls.order_free)
# each one's model options; the frequency form too, where the algorithm has one
CASES: dict[str, list[dict[str, Any]]] = {
    "mondrian": [{"l": 3}, {"l": 2, "mondrian_form": "frequency"}, {"l": 5}],
}


def _frames() -> tuple[pd.DataFrame, np.ndarray]:
    table = census.generate(N, seed=census.DEFAULT_SEED)
    perm = np.random.default_rng(11).permutation(N)  # row i of the permuted table is row perm[i]
    return table, perm


def _build(target: str, tmp: Path) -> Database:
    table, perm = _frames()
    db = Database.open(target)
    for name, frame in (("census", table), ("shuffled", table.iloc[perm].reset_index(drop=True))):
        files = census.write(tmp / name, df=frame)
        ldiv_db.load(db, files["data"], name, sep=";")  # row ids in file order
        for col in QI:
            taxonomy.import_hierarchy(db, name, col, files[col])
    return db


@pytest.fixture(scope="module", params=["duckdb", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    tmp = tmp_path_factory.mktemp("order_free")
    if request.param == "duckdb":
        target = str(tmp / "order_free.duckdb")
    else:
        server = request.getfixturevalue("pg_server")
        target = str(server.url(server.new_database("order_free")))
    handle = _build(target, tmp)
    yield handle
    handle.close()


def _release(
    db: Database, table: str, algorithm: str, out: str, options: dict[str, Any], *, ordered: bool = True
) -> dict[str, Any]:
    """The release's published rows (in their stored order: ``ordered``), private link, counts, metrics."""
    r = ldiv_db.anonymize(
        db, table, QI, census.SA, algorithm=algorithm, output=out, replace=True, seed=SEED, **options
    )
    assert r.verified, r
    order = " ORDER BY rowid" if ordered else ""
    rows = db.rows(Query("read", f"SELECT * FROM {TableRef(out, 'main').sql()}{order}"))
    link = db.rows(
        Query(
            "link",
            "SELECT source_rowid, group_id FROM ldiv.release_row WHERE release_id = $r ORDER BY source_rowid",
            {"r": int(r.release_id)},
        )
    )
    return {
        "rows": rows,
        "link": link,
        "counts": (r.classes, r.rows_published, r.rows_deleted, r.rows_with_suppressed_cells),
        "metrics": {k: r.metrics.get(k) for k in ("il", "dm", "stars", "cavg", "ncp")},
    }


def _groups_by_position(link: list[tuple[Any, Any]]) -> list[Any]:
    """The group of each source row, by its position in the source (row ids in file order)."""
    return [gid for _, gid in sorted(link)]


def _same_groups_of_rows(a: dict[str, Any], b: dict[str, Any], perm: np.ndarray) -> bool:
    """Is every row of the table in ``a`` in the group its image in the permuted table has in ``b``?"""
    ga, gb = _groups_by_position(a["link"]), _groups_by_position(b["link"])
    return len(ga) == len(gb) == N and all(ga[int(perm[i])] == gb[i] for i in range(N))


def test_some_algorithm_is_order_free() -> None:
    assert "mondrian" in ORDER_FREE
    assert set(ORDER_FREE) == set(CASES), "give every order-free algorithm its cases here"


@pytest.mark.parametrize(
    ("algorithm", "case"), [(a, i) for a in ORDER_FREE for i in range(len(CASES.get(a, [])))]
)
def test_permuted_source_same_release(db: Database, algorithm: str, case: int) -> None:
    options = CASES[algorithm][case]
    _, perm = _frames()
    a = _release(db, "census", algorithm, "out_a", options)
    b = _release(db, "shuffled", algorithm, "out_b", options)
    print(f"{algorithm} {options}: {a['counts'][0]} groups, {len(a['rows'])} published rows")
    assert a["counts"][0] > 10  # a partition with many groups, not one class
    assert a["rows"] == b["rows"], "the published rows, their order or their group ids differ"
    assert _same_groups_of_rows(a, b, perm), "a source row and its image are in different groups"
    assert a["counts"] == b["counts"]
    assert a["metrics"] == b["metrics"]


def test_control_order_dependent_algorithm_differs(db: Database) -> None:
    """TP reads the seeded copy and breaks its ties by row order: on the permuted rows its partition
    differs, which the comparison above would report."""
    assert not REGISTRY["tp"].order_free
    _, perm = _frames()
    a = _release(db, "census", "tp", "tp_a", {"l": 3})
    b = _release(db, "shuffled", "tp", "tp_b", {"l": 3})
    assert not _same_groups_of_rows(a, b, perm)
    assert a["rows"] != b["rows"]
