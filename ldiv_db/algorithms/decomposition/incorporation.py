"""Decomposition+ starvation incorporation (SPEC §4.3, [D]): each starved row joins the new group minimizing
(group holds its primary value?, penalty on the non-primary SAs, size, group id), in chunks of rows that
read the groups as they were when the chunk started.

The groups holding a value are kept per value, so a row's marked groups (holding its primary value or
one of its other values) are sets it reads, not a groups-wide scan. The unmarked group of least (size,
id) is found by walking the groups in that order past the marked ones: per size, the groups of at most
that size in id order, a deletion-only next-pointer (sizes only grow). A row whose walk passes many
marked groups (a primary value most groups hold, but not all) is priced over every group instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
CHUNK = 64  # starved rows placed between two updates of the group states
WALK = 64  # groups a row's walk passes before it prices every group


class _AtMost:
    """Group ids whose size is at most ``size``, ascending, as next-pointers (a group leaves when it grows)."""

    def __init__(self, sizes: IntArray, size: int) -> None:
        ids = np.arange(len(sizes) + 1, dtype=np.int64)
        # a group already larger points past itself
        self.nxt = np.where(np.append(sizes, 0) <= size, ids, ids + 1).tolist()

    def find(self, g: int) -> int:
        nxt = self.nxt
        root = g
        while nxt[root] != root:
            root = nxt[root]
        while nxt[g] != root:
            nxt[g], g = root, nxt[g]
        return root

    def leave(self, g: int) -> None:
        self.nxt[g] = g + 1


class _Groups:
    """The new groups' states: sizes, the groups holding each value (primary and per other SA)."""

    def __init__(self, groups: int, gid: IntArray, bucket: IntArray, others: Sequence[IntArray]) -> None:
        placed = np.nonzero(gid >= 0)[0]
        self.n = groups
        self.size = np.bincount(gid[placed], minlength=groups).astype(np.int64)
        self.primary: dict[int, set[int]] = {}
        self.others: list[dict[int, set[int]]] = [{} for _ in others]
        self.add(gid[placed], bucket[placed], [o[placed] for o in others])
        self.at_most: dict[int, _AtMost] = {}
        self.count: dict[int, int] = dict(enumerate(np.bincount(self.size).tolist()))
        self.least = int(self.size.min())
        self.top = int(self.size.max())

    def add(self, g: IntArray, prim: IntArray, others: Sequence[IntArray]) -> None:
        for holders, codes in ((self.primary, prim), *zip(self.others, others, strict=True)):
            for gg, v in zip(g.tolist(), codes.tolist(), strict=True):
                holders.setdefault(v, set()).add(gg)

    def grow(self, g: IntArray) -> None:
        size = self.size
        for gg in g.tolist():
            a = int(size[gg])
            size[gg] = a + 1
            self.count[a] -= 1
            self.count[a + 1] = self.count.get(a + 1, 0) + 1
            walk = self.at_most.get(a)
            if walk is not None:
                walk.leave(gg)
        self.top = max(self.top, int(size[g].max()))
        while not self.count.get(self.least):
            self.least += 1

    def level(self, s: int) -> _AtMost:
        walk = self.at_most.get(s)
        if walk is None:
            walk = self.at_most[s] = _AtMost(self.size, s)
        return walk


def _walk(groups: _Groups, skip: Callable[[int], bool]) -> int | None:
    """The first group in (size, id) order for which ``skip`` is false; None if every group is skipped,
    -1 when the walk passes more than :data:`WALK` groups."""
    size = groups.size
    passed = 0
    for s in range(groups.least, groups.top + 1):
        walk = groups.level(s)
        g = walk.find(0)
        while g < groups.n:
            if size[g] == s and not skip(g):
                return g
            passed += 1
            if passed > WALK:
                return -1
            g = walk.find(g + 1)
    return None


def _best(groups: _Groups, p: int, values: Sequence[int], k: int) -> int:
    """The group a starved row (primary code ``p``, other codes ``values``) joins."""
    holding = groups.primary.get(p, set())
    ys = [h.get(v, set()) for h, v in zip(groups.others, values, strict=True)]

    def penalized(g: int) -> bool:
        return any(g in y for y in ys)

    every = len(holding) == groups.n
    if every:  # the primary value in every group: the least penalty, then size and id
        found = _walk(groups, penalized)
    else:
        found = _walk(groups, lambda g: g in holding or penalized(g))
    if found is not None and found >= 0:
        return found
    if found is None and not every:  # every group lacking the value repeats another: the least penalty
        lacking = {g for y in ys for g in y if g not in holding}
        return min(lacking, key=lambda g: (sum(g in y for y in ys), int(groups.size[g]), g))
    return _priced(groups, holding, ys, k)


def _priced(groups: _Groups, holding: set[int], ys: Sequence[set[int]], k: int) -> int:
    """The least (holds the primary value?, penalty, size, id) over every group."""
    key = np.zeros(groups.n, dtype=np.int64)
    if holding:
        key[np.fromiter(holding, dtype=np.int64)] = k
    for y in ys:
        if y:
            key[np.fromiter(y, dtype=np.int64)] += 1
    bound = np.int64(groups.top + 1)
    return int(np.argmin(key * bound + groups.size))


def incorporate(
    gid: IntArray, groups: int, starved: IntArray, bucket: IntArray, others: Sequence[IntArray]
) -> None:
    """Place ``starved`` (in placing order) into the groups 0..groups-1 of ``gid``."""
    state = _Groups(groups, gid, bucket, others)
    k = len(others) + 1
    prim = bucket.tolist()
    other = [o.tolist() for o in others]
    for c0 in range(0, len(starved), CHUNK):
        rows = starved[c0 : c0 + CHUNK]
        best = np.array(
            [_best(state, prim[r], [o[r] for o in other], k) for r in rows.tolist()], dtype=np.int64
        )
        gid[rows] = best
        state.grow(best)
        state.add(best, bucket[rows], [o[rows] for o in others])
