"""The run's seeded key and the published group ids, in numpy, for an algorithm that holds its group ids
in memory: the same permutation as ``sql/_macros/seeded_key.sql`` (6 Feistel rounds over keys below
2^62, keyed by the run's seed in [0, 2^63 - 1]) and the same group-id rule as ``sql/order/group_ids.sql``
(ids 1..G in the order of the groups' keys, groups whose rows are all deleted last). The SQL is the rule;
tests/unit/test_seeded_key.py holds the two equal."""

from __future__ import annotations

import numpy as np

# per round: the bits of the seed it takes (shift), and its multiply-shift hash (sql/_macros/seeded_key.sql)
SHIFTS = (0, 21, 42, 11, 32, 53)
MULTS = (1103515245, 1664525, 22695477, 134775813, 1588635695, 1340134909)
ADDS = (12345, 1013904223, 2531011, 1, 7, 11)
HALF = 2**31


def seeded_keys(keys: np.ndarray, seed: int) -> np.ndarray:
    """The seeded key of each row key (0 <= key < 2^62): distinct keys give distinct results."""
    k = np.asarray(keys, dtype=np.int64)
    if len(k) and (int(k.min()) < 0 or int(k.max()) >= 2**62):
        raise ValueError("a seeded key's input lies in [0, 2^62)")
    if not 0 <= seed < 2**63:
        raise ValueError("a seed lies in [0, 2^63)")
    left, right = k >> 31, k % HALF
    for shift, mult, add in zip(SHIFTS, MULTS, ADDS, strict=True):
        sub = (seed >> shift) % 2**21
        mixed = (((right ^ sub) * mult + add) >> 15) % HALF  # below 2^62 before the shift: no overflow
        left, right = right, left ^ mixed
    out: np.ndarray = left * HALF + right
    return out


def published_ids(gids: np.ndarray, seed: int, gone: np.ndarray | None = None, base: int = 0) -> np.ndarray:
    """The published id of each of the distinct group ids ``gids`` (all above ``base``): ``base`` + 1 + the
    group's rank by (gone, seeded key); ``gone`` marks the groups whose rows are all deleted."""
    g = np.asarray(gids, dtype=np.int64)
    if len(g) and int(g.min()) <= base:
        raise ValueError("published ids are drawn for group ids above the base")
    rank_key = seeded_keys(g, seed)
    if gone is None:
        order = np.argsort(rank_key)  # the keys are distinct for distinct ids: no tie to keep stable
    else:
        order = np.lexsort((rank_key, np.asarray(gone, dtype=bool)))
    ranked = rank_key[order]
    if len(g) > 1 and bool((ranked[1:] == ranked[:-1]).any()):  # equal keys: equal ids (a permutation)
        raise ValueError("published ids are drawn for distinct group ids")
    out = np.empty(len(g), dtype=np.int64)
    out[order] = base + 1 + np.arange(len(g), dtype=np.int64)
    return out
