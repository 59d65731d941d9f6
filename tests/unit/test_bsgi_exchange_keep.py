"""The BSGI exchange's per-round shortcuts (``refine/exchange.py``, ``refine/rounds.py``, ``refine/swaps.py``):
the keep test's per-class flags are the costs and changes they stand for at every call (also with a
round's chunks on threads), a round's chunks take the pairs the whole round holds, and the spread sums of
exact costs taken column by column find the exchanges of numpy's sums."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import CostModel
from ldiv_db.algorithms.bsgi.refine import exchange as refine
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from ldiv_db.algorithms.bsgi.refine.rounds import Round, places
from tests.unit.test_bsgi_refine_fast import Plain, _run, _same, cases


def _refiner(case: dict[str, Any]) -> Refiner:
    return Refiner(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )


@settings(max_examples=40, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)), workers=st.sampled_from([1, 3]), log=st.booleans())
def test_the_keep_flags_are_the_costs_and_changes_of_the_pairs_classes(
    case: dict[str, Any], workers: int, log: bool
) -> None:
    """At every keep test the flags of the round's classes are (cost > 0) | 2·(changed in this pass or
    the previous one), read directly; without the pair log the pairs kept are those the direct test
    keeps (with it, some of them); and the exchanges are the plain search's."""
    saved = refine.CHUNK
    refine.CHUNK = 1  # one-pair chunks: the threads' keep tests interleave
    try:
        refiner = _refiner(case)
        refiner.workers, refiner.skip_priced = workers, log
        kept = refiner._kept
        calls = [0]

        def check(cost: np.ndarray, a: np.ndarray, b: np.ndarray, pid: np.ndarray | None) -> Any:
            for x in (a, b):  # these classes only: no other chunk of the round writes them
                moved = refiner._active[x] | refiner._changed[x]
                assert np.array_equal(refiner._live[x], (cost[x] > 0) | (moved.astype(np.uint8) << 1))
            live = (cost[a] > 0) | (cost[b] > 0)
            live &= refiner._active[a] | refiner._active[b] | refiner._changed[a] | refiner._changed[b]
            got = kept(cost, a, b, pid)
            if pid is None:
                assert np.array_equal(got[0], a[live]) and np.array_equal(got[1], b[live])
            else:
                assert set(zip(got[0].tolist(), got[1].tolist(), strict=True)) <= set(
                    zip(a[live].tolist(), b[live].tolist(), strict=True)
                )
            calls[0] += 1
            return got

        refiner._kept = check  # type: ignore[method-assign]
        fast = refiner.run(case["gid"].copy())
    finally:
        refine.CHUNK = saved
    assert calls[0] >= 1
    if CostModel(case["attrs"]).exact:
        _same(fast, _run(Plain, case))


@settings(max_examples=30, deadline=None)
@given(k=st.integers(2, 60), window=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_a_rounds_chunks_take_the_pairs_of_the_whole_round(k: int, window: int, seed: int) -> None:
    """``Round.pairs(lo, hi)`` is the slice lo..hi of the round's pairs, and the round unpacks as them."""
    order = np.random.default_rng(seed).permutation(k)
    for first, second in places(k, window):
        r = Round(order, first, second)
        a, b = r
        assert np.array_equal(a, order[first]) and np.array_equal(b, order[second]) and len(r) == len(first)
        cut = len(r) // 3
        parts = [r.pairs(0, cut), r.pairs(cut, 2 * cut), r.pairs(2 * cut, len(r))]
        assert np.array_equal(np.concatenate([p[0] for p in parts]), a)
        assert np.array_equal(np.concatenate([p[1] for p in parts]), b)


@settings(max_examples=30, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)))
def test_spread_sums_column_by_column_find_the_exchanges_of_numpys_sums(case: dict[str, Any]) -> None:
    """Exact costs: a pair's distances are whole numbers, added column by column (:attr:`whole`); the sums
    are numpy's bit for bit, and with numpy's sums the search applies the same exchanges. Inexact costs
    keep numpy's sums (their order would change the rounding)."""
    columns, plain = _refiner(case), _refiner(case)
    exact = CostModel(case["attrs"]).exact
    assert columns.pricer.whole == exact
    plain.pricer.whole = False
    cross = np.random.default_rng(0).integers(0, 1000, (50, 4, 3)).astype(np.float64)
    for axis in (1, 2):
        assert np.array_equal(columns.pricer._sum(cross, axis), cross.sum(axis=axis)) or not exact
    _same(columns.run(case["gid"].copy()), plain.run(case["gid"].copy()))
