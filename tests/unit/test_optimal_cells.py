"""The optimal search's merge of SA cells (``optimal/lattice.py`` ``_merge_cells``): the presence table over
(group, value) keys and the sort it falls back to where that range is long (an SA of about a value per row,
where a table of groups × values would not fit in memory) give the same cells."""

from __future__ import annotations

import numpy as np
import pytest

import ldiv_db.algorithms.optimal.lattice as lattice
from ldiv_db.algorithms.optimal.judge import COUNTS, PRESENCE
from ldiv_db.algorithms.optimal.lattice import Scratch, _merge_cells


@pytest.mark.parametrize("detail", [COUNTS, PRESENCE])
@pytest.mark.parametrize("seed", range(20))
def test_the_table_and_the_sort_merge_the_same_cells(
    seed: int, detail: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(seed)
    n_start, n_groups, width = int(rng.integers(1, 60)), 0, int(rng.integers(1, 40))
    inv = rng.integers(0, max(1, n_start // 2), n_start)
    n_groups = int(inv.max()) + 1
    n_cells = int(rng.integers(0, 200))
    tg = rng.integers(0, n_start, n_cells)
    tv = rng.integers(0, width, n_cells)
    tn = rng.integers(1, 9, n_cells).astype(np.float64)
    out = []
    for per_row, least in ((10**9, 10**9), (0, 0)):  # the table, then the sort
        monkeypatch.setattr(lattice, "LOOKUP_PER_ROW", per_row)
        monkeypatch.setattr(lattice, "LOOKUP_MIN", least)
        out.append(_merge_cells(inv, n_groups, (tg, tv, tn), width, detail, Scratch()))
    for a, b in zip(*out, strict=True):
        assert np.array_equal(a, b)
    keys = sorted({(int(inv[g]), int(v)) for g, v in zip(tg, tv, strict=True)})
    assert list(zip(out[0][0].tolist(), out[0][1].tolist(), strict=True)) == keys


def test_many_groups_of_many_values_need_no_table_of_their_product() -> None:
    """200,000 groups × 200,000 SA values (40 billion keys: a 37 GiB table): the sort, in a moment."""
    n = 200_000
    inv = np.arange(n, dtype=np.int64) // 2
    cells = (np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64), np.ones(n))
    gi, vi, rows = _merge_cells(inv, n // 2, cells, n, COUNTS, Scratch())
    assert len(gi) == n and np.array_equal(vi, np.arange(n)) and rows.sum() == n
