"""The seeded BSGI's random first picks (ldiv_db/algorithms/bsgi/greedy/seeds.py): the k-th remaining row
of a bucket found through per-block counts must be the k-th of the definition (the bucket's rows in
row-id order, the taken ones left out), and the counts must follow every take and give-back of a run."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.seeds import SeedBlocks
from ldiv_db.algorithms.bsgi.greedy.select import Engine
from ldiv_db.algorithms.shared.schedule import max_l_schedule
from tests.unit.test_bsgi_engine import SPECS, Row, build


@settings(max_examples=80, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 40), min_size=1, max_size=5),
    block=st.integers(1, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_kth_remaining_row_is_the_definitions(sizes: list[int], block: int, seed: int) -> None:
    rng = random.Random(seed)
    n = sum(sizes)
    queue = np.array(rng.sample(range(n), n), dtype=np.int64)  # any layout of the positions by bucket
    bounds = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    blocks = SeedBlocks(queue, bounds, n, block)
    taken = np.zeros(n, dtype=bool)
    for _ in range(60):
        b = rng.randrange(len(sizes))
        rows = queue[bounds[b] : bounds[b + 1]]
        left = rows[~taken[rows]]
        assert blocks.remaining(b) == len(left)
        if len(left):
            k = rng.randrange(len(left))
            assert blocks.kth(b, k, taken) == left[k]
            ks = np.array([rng.randrange(len(left)) for _ in range(rng.randint(1, 6))], dtype=np.int64)
            assert blocks.kth_many(b, ks, taken).tolist() == left[ks].tolist()
        move = rng.random()
        free = np.flatnonzero(~taken)
        if move < 0.4 and len(free):  # one row taken
            p = int(free[rng.randrange(len(free))])
            taken[p] = True
            blocks.taken(p)
        elif move < 0.8 and len(free):  # several at once, as a wave takes them
            many = np.array(rng.sample(free.tolist(), rng.randint(1, len(free))), dtype=np.int64)
            taken[many] = True
            blocks.taken(many)
        elif taken.any():  # a taken row given back
            used = np.flatnonzero(taken)
            p = int(used[rng.randrange(len(used))])
            taken[p] = False
            blocks.returned(p)


def _table(n: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    return [
        (
            i,
            "PQRSTU"[min(int(rng.expovariate(0.6)), 5)],
            ("abcdef"[rng.randrange(6)], rng.randrange(20, 40), "x", "FM"[i % 2]),
        )
        for i in range(n)
    ]


@settings(max_examples=25, deadline=None)
@given(n=st.integers(20, 300), seed=st.integers(0, 10_000), mode=st.sampled_from(["seq", "waves", "variant"]))
def test_the_counts_follow_every_take_of_a_seeded_run(n: int, seed: int, mode: str) -> None:
    rows = _table(n, seed)
    individual = [i % max(2, n // 3) for i in range(n)] if mode == "variant" else None
    cells, model = build(rows, SPECS, individual=individual)
    eng = Engine(cells, model, 2, window=2 if mode == "waves" else None, rng=random.Random(seed))
    if mode == "variant":
        eng.run(None)
    else:
        sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
        eng.run(max_l_schedule(sizes.tolist(), 2), batch=4 if mode == "waves" else None)
    assert eng.seed_blocks is not None
    assert int(eng.seed_blocks.live.sum()) == int(np.count_nonzero(~eng.taken))
    for b in range(eng.m):
        rows_b = eng.seed_rows[b]
        assert eng.seed_blocks.remaining(b) == int(np.count_nonzero(~eng.taken[rows_b]))
