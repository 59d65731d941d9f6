"""The memo of evaluated partitions (ldiv_db/algorithms/lplus/known.py): its lookups, and searches that
answer partitions from it giving, at every visit and locking stage, the same cost and lower bound (and so
the same visits and result) as searches that price every partition; a memo keyed without the open values
fails that comparison."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ldiv_db.algorithms.lplus import known
from ldiv_db.algorithms.lplus.search import Search
from tests.unit.lplus_fixtures import to_problem
from tests.unit.test_lplus_joint import COMBOS, _table


def test_known_keeps_figures_in_the_newest_and_the_sorted_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(known.Known, "PENDING", 8)
    k = known.Known()
    keys = np.array([50, 7, 19, 3, 88], dtype=np.int64)
    k.put(keys, keys * 10, keys * 2, keys % 2)
    assert k.keys.size == 0 and len(k) == 5  # all among the newest
    assert k.nkeys.tolist() == sorted(keys.tolist())
    more = np.array([1, 2, 4, 5, 6, 100], dtype=np.int64)
    k.put(more, more * 10, more * 2, more % 2)
    assert k.keys.size == 11 and k.nkeys.size == 0  # moved to the arrays, sorted
    assert list(k.keys) == sorted(k.keys.tolist())
    k.put(np.array([9], dtype=np.int64), np.array([0]), np.array([0]), np.array([1]))
    ask = np.array([88, 9, 10, 1, 101, 3], dtype=np.int64)
    cost, lb, ran = k.get(ask)
    assert cost.tolist() == [880, 0, -1, 10, -1, 30]
    assert lb.tolist() == [176, 0, -1, 2, -1, 6]
    assert ran.tolist() == [0, 1, -1, 1, -1, 1]


def test_a_key_repeated_in_a_batch_keeps_its_last_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a dict's assignments in order: the last of equal keys wins, among the newest, after later
    batches and once merged into the sorted arrays; a batch's repeats take no row of their own."""
    monkeypatch.setattr(known.Known, "PENDING", 8)
    k = known.Known()
    keys = np.array([5, 9, 5, 2, 9, 5], dtype=np.int64)
    k.put(keys, np.arange(6) * 10, np.arange(6), np.array([0, 0, 0, 1, 1, 1]))
    assert len(k) == 3
    want = ([50, 40, 30], [5, 4, 3], [1, 1, 1])
    ask = np.array([5, 9, 2], dtype=np.int64)
    assert [c.tolist() for c in k.get(ask)] == list(want)
    k.put(np.array([7, 1, 7], dtype=np.int64), np.array([1, 2, 3]), np.array([4, 5, 6]), np.array([0, 1, 1]))
    assert len(k) == 5 and [c.tolist() for c in k.get(ask)] == list(want)  # earlier rows not overwritten
    assert [c.tolist() for c in k.get(np.array([7, 1], dtype=np.int64))] == [[3, 2], [6, 5], [1, 1]]
    k.put(np.array([3, 4, 3, 6], dtype=np.int64), *[np.array([8, 8, 9, 9])] * 3)
    assert k.keys.size == 8 and k.nkeys.size == 0  # merged
    assert [c.tolist() for c in k.get(np.array([5, 9, 2, 7, 3], dtype=np.int64))] == [
        [50, 40, 30, 3, 9],
        [5, 4, 3, 6, 9],
        [1, 1, 1, 1, 9],
    ]


def test_known_stops_keeping_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(known, "LIMIT", 3)
    k = known.Known()
    k.put(np.array([1, 2, 3], dtype=np.int64), *[np.ones(3, dtype=np.int64)] * 3)
    k.put(np.array([4], dtype=np.int64), *[np.ones(1, dtype=np.int64)] * 3)
    assert len(k) == 3 and k.get(np.array([4], dtype=np.int64))[0].tolist() == [-1]


def _trace(problem: object, enumerate_all: bool) -> list[Any]:
    """Every visit and locking stage (depth, cost, lower bound), the visited cuts and the result."""
    events: list[Any] = []
    s = Search(problem, value_order="occurrences", enumerate_all=enumerate_all)  # type: ignore[arg-type]
    s.trace = lambda *e: events.append(e)
    r = s.run()
    return [events, s.visit_cuts, r.cost, r.cut, r.visited, r.pruned]


def _count_hits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    hits = [0]
    real = known.Known.get

    def spy(self: known.Known, keys: Any) -> Any:
        out = real(self, keys)
        hits[0] += int((out[0] >= 0).sum())
        return out

    monkeypatch.setattr(known.Known, "get", spy)
    return hits


def _compare(monkeypatch: pytest.MonkeyPatch, seeds: range) -> int:
    """Searches with the memo against searches with an empty one (every partition priced); the memo's
    answers counted."""
    hits = _count_hits(monkeypatch)
    for seed in seeds:
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            for enumerate_all in (True, False):
                with monkeypatch.context() as m:
                    m.setattr(known, "LIMIT", 0)  # nothing kept: every evaluation prices every partition
                    priced = _trace(problem, enumerate_all)
                assert _trace(problem, enumerate_all) == priced, (seed, metric, scheme, enumerate_all)
    return hits[0]


def test_answers_from_the_memo_equal_priced_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _compare(monkeypatch, range(0, 12)) > 0


def test_the_comparison_catches_a_memo_blind_to_open_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyed by the partition alone (the open bits dropped), a partition's bound computed with some of its
    values open is reused after they are locked (or the other way round): the bounds differ."""
    real_get, real_put = known.Known.get, known.Known.put
    d = 3  # the odd seeds' tables have three attributes: the open bits are the key's low 3 bits
    monkeypatch.setattr(known.Known, "get", lambda self, keys: real_get(self, keys >> d))
    monkeypatch.setattr(
        known.Known,
        "put",
        lambda self, keys, c, lb, ran: real_put(self, *_first(keys >> d, c, lb, ran)),
    )
    with pytest.raises(AssertionError):
        _compare(monkeypatch, range(1, 24, 2))


def _first(keys: Any, *cols: Any) -> tuple[Any, ...]:
    """The first entry of each key (the blind memo's keys repeat)."""
    _, at = np.unique(keys, return_index=True)
    return (keys[at], *(c[at] for c in cols))


def test_a_histogram_above_the_cell_limit_keeps_no_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above ``MAX_CELLS`` the search prices every evaluation, with the same visits and result."""
    taxes, rows, theta = _table(1)
    problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
    hits = _count_hits(monkeypatch)
    kept = _trace(problem, True)
    assert hits[0] > 0
    monkeypatch.setattr(known, "MAX_CELLS", 0)
    s = Search(problem, value_order="occurrences")
    assert s.boxes is not None and s.boxes.known is None
    assert _trace(problem, True) == kept


def test_each_cells_memo_key_follows_every_move_and_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo key the search keeps per cell (through specializations, locks and their undoing, and
    into merged sub-searches) is, at every evaluation, the one computed afresh from its partition key
    and the open values; a search that left a lock out of it would fail this."""
    from ldiv_db.algorithms.lplus import boxes, merge
    from ldiv_db.algorithms.lplus import search as search_mod

    for name, value in (("MIN_CELLS", 0), ("CHECK_SHARE", 0.0), ("KEEP_SHARE", 1.0)):
        monkeypatch.setattr(merge, name, value)  # merged below every lock
    checked: list[int] = []
    searches: set[int] = set()
    real = search_mod.Search._eval

    def spy(self: Search, idx: Any) -> Any:
        if self.mk is not None:
            assert np.array_equal(self.mk, boxes.cell_keys(self))
            checked.append(1)
            searches.add(id(self))
        return real(self, idx)

    monkeypatch.setattr(search_mod.Search, "_eval", spy)
    for seed in range(8):
        taxes, rows, theta = _table(seed)
        problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
        for enumerate_all in (True, False):
            s = Search(problem, value_order="occurrences", enumerate_all=enumerate_all)
            s.run()
            assert np.array_equal(s.mk, boxes.cell_keys(s))  # every move and lock undone
    assert len(checked) > 100 and len(searches) > 16  # sub-searches among them


def test_searches_put_only_distinct_unknown_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Known.put`` keeps the last of a batch's repeats but does not look for a key it already holds (one
    put again would be held twice): every search calls it only with keys that are not yet known, and
    with distinct keys, so no batch relies on the repeats' rule."""
    real = known.Known.put
    batches: list[int] = []

    def checked_put(self: known.Known, keys: Any, cost: Any, lb: Any, ran: Any) -> None:
        assert np.unique(keys).size == keys.size, "a key repeated within one batch"
        assert (self.get(keys)[0] < 0).all(), "a key put again"
        batches.append(int(keys.size))
        real(self, keys, cost, lb, ran)

    monkeypatch.setattr(known.Known, "put", checked_put)
    for seed in range(10):
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            for enumerate_all in (True, False):
                Search(problem, value_order="occurrences", enumerate_all=enumerate_all).run()
    assert len(batches) > 50 and sum(batches) > len(batches)
