"""The exchange search's gathers and short reductions (``refine/gathers.py``: :func:`take_rows`,
:func:`take_cells`, :func:`lowest`, :func:`highest`) give numpy's own numbers — fancy indexing of rows
and of cells, ``min``/``max`` over the last axis — on random arrays of every shape and dtype they meet
(masks and indices, repeats, empty selections, non-contiguous views, ties, NaN); and the whole search,
run with numpy's indexing and reductions patched in instead, applies the same exchanges."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import CostModel
from ldiv_db.algorithms.bsgi.refine import exchange, gathers, swaps
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from tests.unit.test_bsgi_refine_fast import _run, _same, cases

DTYPES = (np.int8, np.int32, np.int64, np.float64)


def _array(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    x = rng.integers(-3, 4, shape)  # few values: many ties
    if dtype == np.float64:
        x = x + rng.random(shape).round(1)
        x[rng.random(shape) < 0.05] = np.nan
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(6))
def test_take_rows_is_fancy_indexing_of_rows(dtype: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for ndim in (1, 2, 3):
        n = int(rng.integers(0, 40))
        shape = (n, *rng.integers(1, 6, ndim - 1).tolist())
        x = _array(rng, shape, dtype)
        views = [x, x[..., : max(1, shape[-1] - 1)]] if ndim > 1 else [x, x[::-1]]
        for v in views:  # contiguous and not
            idx = rng.integers(0, n, int(rng.integers(0, 50))) if n else np.zeros(0, dtype=np.int64)
            mask = rng.random(n) < rng.random()
            for at in (idx, mask, np.flatnonzero(mask)):
                got, want = gathers.take_rows(v, at), v[at]
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(6))
def test_take_cells_is_fancy_indexing_of_cells(dtype: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, width = int(rng.integers(1, 30)), int(rng.integers(1, 7))
    x = _array(rng, (rows, width + 2), dtype)
    for v in (x, x[:, :width], x[:, 1 : width + 1], x[::2]):  # a slice of columns is not contiguous
        m = int(rng.integers(0, 60))
        r, c = rng.integers(0, v.shape[0], m), rng.integers(0, v.shape[1], m)
        got = gathers.take_cells(v, r, c)
        assert got.dtype == v.dtype
        np.testing.assert_array_equal(got, v[r, c])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 8, 9, 12])  # below, at and above SHORT
def test_lowest_and_highest_are_min_and_max_of_the_last_axis(dtype: Any, width: int) -> None:
    rng = np.random.default_rng(width)
    for shape in ((0, width), (17, width), (3, 11, width), (width,)):
        x = _array(rng, shape, dtype)
        for v in (x, x[..., ::-1]):
            lo, hi = gathers.lowest(v), gathers.highest(v)
            np.testing.assert_array_equal(lo, v.min(axis=-1))
            np.testing.assert_array_equal(hi, v.max(axis=-1))
            assert lo.dtype == v.dtype and hi.dtype == v.dtype
    x = _array(rng, (5, width), dtype)
    kept = gathers.lowest(x)
    x[:] = 0  # a width of one is a copy, not a view the caller's later writes could change
    assert not np.shares_memory(kept, x)


def _numpy_gathers(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's fancy indexing and axis reductions in place of the four functions, where they are used."""

    def rows(x: np.ndarray, at: np.ndarray) -> np.ndarray:
        return x[at]

    def cells(x: np.ndarray, r: np.ndarray, c: np.ndarray) -> np.ndarray:
        return x[r, c]

    for module in (swaps, exchange):
        monkeypatch.setattr(module, "take_rows", rows, raising=False)
        monkeypatch.setattr(module, "take_cells", cells, raising=False)
    monkeypatch.setattr(swaps, "lowest", lambda x: x.min(axis=-1))
    monkeypatch.setattr(swaps, "highest", lambda x: x.max(axis=-1))


@settings(max_examples=40, deadline=None)
@given(case=cases())
def test_the_search_applies_the_exchanges_of_numpy_indexing(case: dict[str, Any]) -> None:
    """Random tables with many exchanges per round and tied costs: the same partition, moves and IL."""
    fast = _run(Refiner, case)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_gathers(mp)
        plain = _run(Refiner, case)
    _same(fast, plain)
    assert fast.moves > 0 or fast.il_before == fast.il_after


@pytest.mark.parametrize("seed", range(8))
def test_member_matrix_lists_each_classs_rows_ascending(seed: int) -> None:
    """Per class its row positions ascending, −1 pads to the largest class, and its size: as the
    partition's classes read one by one (classes of mixed sizes, ids with no row, one class, none)."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 40))
    n = int(rng.integers(0, 200)) if seed else 0
    gid = rng.integers(0, k, n)
    if n:
        gid[rng.integers(0, n)] = k - 1  # the largest id holds a row
    mem, sizes = gathers.member_matrix(gid)
    width = max((int((gid == c).sum()) for c in range(k)), default=0) if n else 0
    assert mem.shape == ((k if n else 0), width)
    for c in range(mem.shape[0]):
        rows = np.flatnonzero(gid == c)
        assert sizes[c] == len(rows)
        assert mem[c].tolist() == rows.tolist() + [-1] * (width - len(rows))


@settings(max_examples=30, deadline=None)
@given(case=cases(), coarse=st.integers(1, 40))
def test_refiner_ranks_rows_and_sorts_a_selection_as_the_stable_sorts(
    case: dict[str, Any], coarse: int
) -> None:
    """Each row's rank along a locality order (keys coarsened: ties) is its place in numpy's stable
    argsort, and a selection's classes take their rows in the stable order by class id."""
    locality = case["locality"] // coarse
    model = CostModel(case["attrs"])
    refiner = Refiner(model, case["codes"], case["distinct"], locality, window=case["window"])
    for k in range(locality.shape[1]):
        rank = np.empty(len(locality), dtype=np.int64)
        rank[np.argsort(locality[:, k], kind="stable")] = np.arange(len(locality))
        assert refiner._ranks[:, k].tolist() == rank.tolist()
    gid = case["gid"]
    sizes = np.bincount(gid)
    s = int(sizes.min())
    chosen = gid.copy()
    for c in np.flatnonzero(sizes > s):  # equal-size classes: each class's last row left out
        chosen[np.flatnonzero(gid == c)[-1]] = -1
    rows = np.flatnonzero(chosen >= 0)
    rows = rows[np.argsort(chosen[rows], kind="stable")]
    states = refiner._states(rows.reshape(len(sizes), -1))
    want = np.stack([x for st_ in states for x in st_], axis=1).astype(np.int64, copy=False)
    got, cost = refiner.selection_states(chosen, len(sizes))
    assert got.tolist() == want.tolist()
    assert cost.tolist() == refiner._cost(states).tolist()
