"""Pure-Python parts of ldiv_db.metrics: the per-attribute formulas, ARX's aggregation, Metrics.to_dict."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ldiv_db.core.classes import ClassFacts, Risk
from ldiv_db.errors import BadInput
from ldiv_db.utility import Metrics
from ldiv_db.utility.arx_loss import arx_loss, attribute_share_loss
from ldiv_db.utility.compute import _weights
from ldiv_db.utility.covers import AttributeSummary
from ldiv_db.utility.groups import cavg, discernibility
from ldiv_db.utility.il import attribute_ncp, information_loss
from ldiv_db.utility.lm import attribute_lm, loss_metric


def summary(**kw: object) -> AttributeSummary:
    base: dict[str, object] = {
        "attr": 1, "is_numeric": False, "domain_size": 4, "min_t": None, "max_t": None, "cells": 10,
        "ncp_cat": 0, "ncp_span": 0.0, "lm_num": 0, "cover_sum": 10, "stars": 0, "bad_rows": 0, "bad_label": None,
    }  # fmt: skip
    base.update(kw)
    return AttributeSummary(**base)  # type: ignore[arg-type]


def test_categorical_ncp_and_lm() -> None:
    s = summary(ncp_cat=3 * 2 + 1 * 4, lm_num=3 * 1 + 1 * 3)  # 3 cells at a 2-leaf node, 1 at the root
    assert attribute_ncp(s) == Fraction(10, 4)
    assert attribute_lm(s) == Fraction(6, 3)


def test_numeric_ncp_exact_and_degenerate() -> None:
    assert attribute_ncp(summary(is_numeric=True, min_t=20.0, max_t=50.0, ncp_span=55.0)) == Fraction(11, 6)
    assert attribute_ncp(summary(is_numeric=True, min_t=7.0, max_t=7.0, ncp_span=0.0)) == 0
    assert attribute_ncp(summary(is_numeric=True, min_t=None, max_t=None)) == 0


def test_lm_single_value_domain_and_suppression_costs() -> None:
    assert attribute_lm(summary(domain_size=1, lm_num=0)) == 0
    s = [summary(lm_num=3), summary(attr=2, lm_num=0)]
    # 3/3 generalization + |QI|=2 per SA-suppressed row + 2|QI|=4 per deleted row
    assert loss_metric(s, sa_suppressed_rows=1, deleted_rows=2) == 1 + 2 + 8


def test_information_loss_weights() -> None:
    s = [summary(ncp_cat=4), summary(attr=2, ncp_cat=8)]
    assert information_loss(s, [Fraction(1), Fraction(1, 2)]) == 1 + 1


def test_arx_share_loss() -> None:
    # N = 10 rows, |A| = 4: all leaves -> cover_sum 10 -> 0; all root -> cover_sum 40 -> 1
    assert attribute_share_loss(summary(cover_sum=10), source_rows=10, deleted_rows=0) == 0
    assert attribute_share_loss(summary(cover_sum=40), source_rows=10, deleted_rows=0) == 1
    # 8 published leaves + 2 deleted (ARX outliers count 1 each): (8 + 2*4 - 10) / (10*3)
    assert attribute_share_loss(summary(cover_sum=8), source_rows=10, deleted_rows=2) == Fraction(6, 30)
    assert attribute_share_loss(summary(domain_size=1, cover_sum=10), source_rows=10, deleted_rows=0) == 0


def test_arx_geometric_mean() -> None:
    s = [summary(cover_sum=40), summary(attr=2, cover_sum=10)]  # v = 1 and 0
    assert arx_loss(s, source_rows=10, deleted_rows=0, weights=[Fraction(1)] * 2) == pytest.approx(2**0.5 - 1)
    # ARX scales the weights by their maximum and multiplies them inside the root
    got = arx_loss(s, source_rows=10, deleted_rows=0, weights=[Fraction(2), Fraction(1)])
    assert got == pytest.approx((2 * 0.5) ** 0.5 - 1)


def test_group_metrics() -> None:
    g = ClassFacts.of([(2, 2), (3, 1)])  # Σ|G|² = 4 + 4 + 9
    assert discernibility(g, deleted_rows=2, source_rows=9) == 17 + 18
    assert cavg(7, 3, 2) == Fraction(7, 6)
    assert cavg(7, 3, None) is None and cavg(0, 0, 2) is None


def test_weights_validation() -> None:
    assert _weights(None, 2) == [1, 1]
    assert _weights([1, Fraction(1, 2)], 2) == [1, Fraction(1, 2)]
    with pytest.raises(BadInput):
        _weights([1], 2)
    with pytest.raises(BadInput):
        _weights([0, 0], 2)
    with pytest.raises(BadInput):
        _weights([-1, 2], 2)


def test_to_dict() -> None:
    m = Metrics(
        il=Fraction(59, 6), il_pct=Fraction(100), ncp=Fraction(1), lm=Fraction(3, 2), dm=17, cavg=None, kl=None,
        kl_note="why", stars=5, starred_rows=5, deleted_rows=0, rows=7, cells_suppressed=6,
        rows_with_suppressed_cells=5, classes=3, k=2, avg_class_size=Fraction(7, 3),
        risk=Risk(Fraction(1, 2), Fraction(3, 7), {}), arx_loss=0.25,
    )  # fmt: skip
    d = m.to_dict()
    assert d["il"] == pytest.approx(59 / 6) and isinstance(d["lm"], float) and d["cavg"] is None
    assert "cm" not in d and d["kl_note"] == "why"
    assert (d["cells_suppressed"], d["rows_with_suppressed_cells"]) == (6, 5)
    assert Metrics(**{**m.__dict__, "cm": 4}).to_dict()["cm"] == 4


def test_kl_subset_sums_are_the_masses_of_each_byte_values_set_bits() -> None:
    import numpy as np

    from ldiv_db.utility.kl_join import _subset_sums

    mass = np.random.default_rng(7).random((3, 8))
    got = _subset_sums(mass)
    for row in range(3):
        for v in (0, 1, 5, 128, 200, 255):
            want = sum(mass[row, b] for b in range(8) if v >> b & 1)
            assert got[row, v] == pytest.approx(want, rel=1e-15, abs=0)


def _kl_leaves(monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], object, object]:
    """A random containment problem (3 dimensions) split down to many leaves, each solved on its own."""
    import importlib

    import numpy as np

    kl = importlib.import_module("ldiv_db.utility.kl")
    join = importlib.import_module("ldiv_db.utility.kl_join")
    monkeypatch.setattr(join, "SPLIT_WORK", 0)
    monkeypatch.setattr(join, "TINY_WORK", 0)
    rng = np.random.default_rng(11)
    n_points, n_patterns = 300, 500
    dims = []
    for n_values in (5, 7, 3):
        label, value = np.nonzero(rng.random((n_values + 3, n_values)) < 0.4)
        dims.append(
            join.Dim(
                join.Cover.of_pairs(label, value, n_values + 3, n_values),
                rng.integers(0, n_values + 3, n_patterns),
                rng.integers(-1, n_values, n_points),  # -1: a value outside the domain
            )
        )
    leaves = join.split(dims, np.arange(n_points), np.arange(n_patterns))
    return leaves, rng.random(n_patterns), kl


def test_kl_leaves_shared_with_a_helper_give_the_same_fstar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solving thread and a helper take the leaves one at a time; F* is the same to the last bit."""
    import threading

    import numpy as np

    leaves, mass, kl = _kl_leaves(monkeypatch)
    assert len(leaves) > 20
    alone = np.zeros(300)
    for leaf in leaves:
        kl._solve_leaf(leaf, mass, alone)
    shared = np.zeros(300)
    work = kl._Leaves(leaves, mass, shared)
    taken: list[str] = []
    original = kl._solve_leaf

    def solve_leaf(leaf: object, m: object, f: object) -> None:
        taken.append(threading.current_thread().name)
        original(leaf, m, f)

    monkeypatch.setattr(kl, "_solve_leaf", solve_leaf)
    helper = threading.Thread(target=work.work, name="helper")
    helper.start()
    work.work()
    helper.join()
    work.finish()
    assert np.array_equal(shared, alone) and alone.any()
    assert len(taken) == len(leaves)  # every leaf once


def test_an_error_in_a_shared_leaf_reaches_the_solving_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    leaves, mass, kl = _kl_leaves(monkeypatch)
    calls: list[int] = []

    def solve_leaf(leaf: object, m: object, f: object) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise MemoryError("leaf failed")

    monkeypatch.setattr(kl, "_solve_leaf", solve_leaf)
    work = kl._Leaves(leaves, mass, np.zeros(300))
    work.work()  # stops taking leaves after the error
    assert len(calls) == 3
    with pytest.raises(MemoryError, match="leaf failed"):
        work.finish()


def test_background_result_lets_the_waiting_caller_help() -> None:
    import threading

    from ldiv_db.util.background import Background

    release = threading.Event()
    helped: list[str] = []

    def helper() -> None:  # the caller's share: here, letting the work finish
        helped.append(threading.current_thread().name)
        release.set()

    job = Background(lambda: release.wait(10) and 42, name="work", helper=helper)
    assert job.result() == 42
    assert helped == [threading.current_thread().name]
    done = Background(lambda: 7, name="quick", helper=helper)
    done._thread.join()
    assert done.result() == 7 and len(helped) == 1  # no help once the work has ended


def test_stop_all_interrupts_and_waits_for_every_background_thread() -> None:
    """What a command ending on Ctrl-C calls: no ldiv thread may be left running in the engine when the
    process exits (the interpreter's end of such a thread aborts the process)."""
    import threading

    from ldiv_db.util.background import Background, stop_all

    stop = threading.Event()
    asked: list[str] = []

    def interrupt() -> None:
        asked.append("interrupt")
        stop.set()

    jobs = [Background(lambda: stop.wait(10), name=f"bg-{i}", interrupt=interrupt) for i in range(2)]
    stop_all()
    assert asked and all(not j._thread.is_alive() for j in jobs)
    assert not [t for t in threading.enumerate() if t.name.startswith("bg-")]


def test_cancel_waits_through_a_second_ctrl_c() -> None:
    import threading

    from ldiv_db.util.background import Background

    gate = threading.Event()
    calls: list[int] = []

    def interrupt() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise_in_main.set()  # the first ask: the main thread gets Ctrl-C while it waits
        else:
            gate.set()

    raise_in_main = threading.Event()
    job = Background(lambda: gate.wait(10), name="slow", interrupt=interrupt)
    original_join = job._thread.join

    def join(timeout: float | None = None) -> None:
        if raise_in_main.is_set() and len(calls) == 1:
            raise KeyboardInterrupt
        original_join(timeout)

    job._thread.join = join  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        job.cancel()
    assert len(calls) == 2 and not job._thread.is_alive()  # asked again and waited, then passed it on
