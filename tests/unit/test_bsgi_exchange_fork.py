"""The BSGI exchange's rounds cut between this process and a forked one (``refine/helper.py``): memory
made before the fork is written by both; the forked half of each round applies exactly the exchanges of
one thread; a failure or the death of the child is raised here, never taken for a finished round."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import CostModel
from ldiv_db.algorithms.bsgi.refine import exchange, helper
from ldiv_db.algorithms.bsgi.refine.exchange import Refined, Refiner
from ldiv_db.errors import InternalError
from tests.unit.test_bsgi_refine_fast import _same, cases

pytestmark = pytest.mark.skipif(not helper.can_fork(), reason="no fork on this platform")


def test_memory_made_before_the_fork_is_written_by_both_processes() -> None:
    """The child writes its half, this process the other, each reads the other's after the reply."""
    x = helper.zeros((4, 3), dtype=np.int64)
    y = helper.shared_copy(np.arange(5, dtype=np.int32))

    def serve(job: int) -> int:
        x[2:, :] = job
        y[-1] = -1
        return int(x[:2].sum())  # this process's half, written before the job was sent

    with helper.Helper(serve) as child:
        x[:2, :] = 1
        child.send(7)
        assert child.result() == 6
    assert x.tolist() == [[1, 1, 1], [1, 1, 1], [7, 7, 7], [7, 7, 7]]
    assert y.tolist() == [0, 1, 2, 3, -1] and y.dtype == np.int32
    assert helper.zeros(0, dtype=bool).shape == (0,)


def _refiner(case: dict[str, Any], workers: int, fork: bool) -> Refiner:
    refiner = Refiner(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )
    refiner.workers, refiner.fork = workers, fork
    refiner.skip_priced = False  # the pair log keeps a run on threads; without it the forked path is taken
    refiner.sideways = case["sideways"]
    return refiner


def _forked_run(case: dict[str, Any]) -> tuple[Refined, list[int]]:
    """A run with chunks of one pair or more, so every round is cut; returns it and the jobs the child
    answered (one count a run)."""
    jobs: list[int] = []
    real = helper.Helper.result

    def counted(self: helper.Helper) -> Any:
        jobs.append(1)
        return real(self)

    saved = exchange.CHUNK
    exchange.CHUNK = 1
    helper.Helper.result = counted  # type: ignore[method-assign]
    try:
        return _refiner(case, 2, True).run(case["gid"].copy()), jobs
    finally:
        exchange.CHUNK = saved
        helper.Helper.result = real  # type: ignore[method-assign]


@settings(max_examples=40, deadline=None)
@given(case=cases(one_size=True), sideways=st.booleans())
def test_a_forked_process_applies_the_exchanges_of_one_thread(case: dict[str, Any], sideways: bool) -> None:
    """Classes of one size, each round's second half in the child: the same exchanges, in the same number
    of passes, the same classes and IL as one thread (with and without sideways exchanges); and the child
    did answer rounds."""
    case = {**case, "sideways": sideways}
    one = _refiner(case, 1, False).run(case["gid"].copy())
    two, jobs = _forked_run(case)
    _same(two, one)
    assert jobs  # at least one round was cut between the processes


@settings(max_examples=3, deadline=None)
@given(case=cases(one_size=True))
def test_no_fork_for_one_cpu_for_several_sizes_or_with_the_pair_log(case: dict[str, Any]) -> None:
    refiner = _refiner({**case, "sideways": True}, 2, True)
    saved = exchange.CHUNK
    exchange.CHUNK = 1
    try:
        refiner._sizes = [3]
        assert refiner._forks(40, False)
        assert not refiner._forks(40, True)  # the pair log
        assert not refiner._forks(4, False)  # rounds too small to cut
        refiner._sizes = [3, 4]
        assert not refiner._forks(40, False)
        refiner._sizes, refiner.workers = [3], 1
        assert not refiner._forks(40, False)
        refiner.workers, refiner.fork = 2, False
        assert not refiner._forks(40, False)
    finally:
        exchange.CHUNK = saved


@pytest.mark.parametrize("how", ["raises", "dies"])
@settings(max_examples=2, deadline=None)
@given(case=cases(one_size=True))
def test_a_failure_in_the_forked_process_is_raised_here(how: str, case: dict[str, Any]) -> None:
    """An exception in the child comes back with its traceback; a child that dies mid-round (killed,
    out of memory) is an error too. Either way the run raises: no release from a half-applied round."""

    def serve(self: Refiner, job: Any) -> Any:
        if how == "dies":
            os._exit(3)
        raise ZeroDivisionError("in the child")

    real = Refiner._serve
    saved = exchange.CHUNK
    Refiner._serve = serve  # type: ignore[method-assign]
    exchange.CHUNK = 1
    try:
        with pytest.raises(InternalError, match="ZeroDivisionError" if how == "raises" else "exit status 3"):
            _refiner({**case, "sideways": True}, 2, True).run(case["gid"].copy())
    finally:
        Refiner._serve = real  # type: ignore[method-assign]
        exchange.CHUNK = saved


@settings(max_examples=2, deadline=None)
@given(case=cases(one_size=True))
def test_a_run_that_cannot_fork_runs_on_its_threads(case: dict[str, Any]) -> None:
    """No process left to fork (``EAGAIN``): the run goes on with its threads, the same exchanges."""
    case = {**case, "sideways": True}
    one = _refiner(case, 1, False).run(case["gid"].copy())

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    real, saved = os.fork, exchange.CHUNK
    os.fork, exchange.CHUNK = refuse, 1
    try:
        two = _refiner(case, 2, True).run(case["gid"].copy())
    finally:
        os.fork, exchange.CHUNK = real, saved
    _same(two, one)
