"""The decisions of TP (Xiao, Yi, Tao, EDBT 2010 §5), on count vectors only: no rows, no SQL.

A QI-group is a multiset of SA ids (``{sid: count}``); the residue R is one more multiset. Phase one has
a closed form (SPEC §1.4, :func:`h_star`); phases two and three (SPEC §1.5-1.6) move single rows or
atomic batches from the groups into R until R is l-eligible. :func:`tp_counts` runs all three phases
and reports, per group, how many rows of each SA id left it in phases two and three; the SQL side then
picks the concrete rows (largest row id first, SPEC §1.7).

Tie-breaks are SPEC's [D] rules: the smallest SA id, then the smallest group index (both in
first-appearance order, SPEC §0.6); empty groups are dead (SPEC §1.3).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ...errors import InternalError

Counts = dict[int, int]


def l_eligible(counts: Mapping[int, int], l: int) -> bool:
    """SPEC §0.2: l·h(X) ≤ |X| (the empty set is l-eligible)."""
    return l * max(counts.values(), default=0) <= sum(counts.values())


def h_star(counts: Sequence[int] | Mapping[int, int], l: int) -> int:
    """Phase one's cap (SPEC §1.4): H* = max{H ≤ h : Σ_v min(Q(v), H) ≥ l·H}.

    f(H) = Σ_v min(Q(v), H) − l·H is concave and piecewise linear; its pieces are
    g_j(H) = S_j + (j − l)·H with S_j the sum of all but the j largest counts, so f = min_j g_j and
    H* = min(h, min_{0 ≤ j < l} ⌊S_j / (l − j)⌋) (pieces with j ≥ l never bind). The SQL of
    ``sql/tp/cells.sql`` computes the same expression.
    """
    values = sorted(
        (c for c in (counts.values() if isinstance(counts, Mapping) else counts) if c > 0), reverse=True
    )
    if not values:
        return 0
    rest = sum(values)
    best = values[0]
    for j in range(l):
        best = min(best, rest // (l - j))
        if j < len(values):
            rest -= values[j]
    return best


def h_star_iterative(counts: Mapping[int, int], l: int) -> Counts:
    """Phase one as the paper states it (remove a row from every pillar until eligible); a test oracle."""
    q = {v: c for v, c in counts.items() if c > 0}
    while q and not l_eligible(q, l):
        h = max(q.values())
        for v in [v for v, c in q.items() if c == h]:
            q[v] -= 1
            if q[v] == 0:
                del q[v]
    return q


@dataclass
class TpOutcome:
    """The result of :func:`tp_counts`. ``kept[i]`` is group i after all phases (positive counts only),
    ``residue`` is R, ``moved[i]`` the rows of group i moved in phases two and three (per SA id),
    ``phase`` the phase in which R became l-eligible (1, 2 or 3)."""

    phase: int
    kept: list[Counts]
    residue: Counts
    residue_after_phase_one: Counts
    moved: list[Counts]
    steps: dict[str, int] = field(default_factory=dict)

    @property
    def residue_rows(self) -> int:
        return sum(self.residue.values())


class _State:
    """Groups, R and their pillars during phases two and three."""

    def __init__(self, groups: Sequence[Counts], residue: Counts, l: int) -> None:
        self.l = l
        self.g: list[Counts] = [{v: c for v, c in q.items() if c > 0} for q in groups]
        self.size = [sum(q.values()) for q in self.g]
        self.r: Counts = {v: c for v, c in residue.items() if c > 0}
        self.r_size = sum(self.r.values())
        self.r_h = max(self.r.values(), default=0)
        self.r_pillars = {v for v, c in self.r.items() if c == self.r_h}
        self.moved: list[Counts] = [{} for _ in self.g]
        self.moves = 0
        # per group (h, pillars), recomputed after the group changes
        self._shape: list[tuple[int, frozenset[int]] | None] = [None] * len(self.g)
        # phase three's vectorized mirror of the non-empty groups' counts (rows × SA ids)
        self.mat: npt.NDArray[np.int64] | None = None
        self.row_of: dict[int, int] = {}
        self.col_of: dict[int, int] = {}
        self.dirty: set[int] = set()

    # ---------------------------------------------------------------- group predicates (SPEC §1.3)
    def _group_shape(self, i: int) -> tuple[int, frozenset[int]]:
        shape = self._shape[i]
        if shape is None:
            q = self.g[i]
            h = max(q.values(), default=0)
            shape = self._shape[i] = (h, frozenset(v for v, c in q.items() if c == h))
        return shape

    def h(self, i: int) -> int:
        return self._group_shape(i)[0]

    def pillars(self, i: int) -> list[int]:
        return sorted(self._group_shape(i)[1])

    def thin(self, i: int) -> bool:
        return self.size[i] == self.l * self.h(i)

    def conflicts(self, i: int) -> set[int]:
        """C(Q) = pillars(Q) ∩ pillars(R)."""
        return self.r_pillars & self._group_shape(i)[1]

    def dead(self, i: int) -> bool:
        return self.size[i] == 0 or (self.thin(i) and bool(self.conflicts(i)))

    def eligible(self) -> bool:
        return self.l * self.r_h <= self.r_size

    # ---------------------------------------------------------------- moves
    def move(self, i: int, v: int) -> None:
        q = self.g[i]
        if q.get(v, 0) < 1:
            raise InternalError(f"TP tried to move SA id {v} from QI-group {i + 1}, which holds none")
        q[v] -= 1
        if not q[v]:
            del q[v]
        self.size[i] -= 1
        self._shape[i] = None
        if self.mat is not None:
            row = self.row_of[i]
            self.mat[row, self.col_of[v]] -= 1
            self.dirty.add(row)
        self.moved[i][v] = self.moved[i].get(v, 0) + 1
        self.moves += 1
        c = self.r[v] = self.r.get(v, 0) + 1
        self.r_size += 1
        if c > self.r_h:
            self.r_h = c
            self.r_pillars = {v}
        elif c == self.r_h:
            self.r_pillars.add(v)

    def move_pillars(self, i: int) -> None:
        """One row from each pillar of group i, as one atomic batch (pillars taken before the moves)."""
        for v in self.pillars(i):
            self.move(i, v)


def phase_one(groups: Sequence[Mapping[int, int]], l: int) -> tuple[list[Counts], Counts]:
    """SPEC §1.4: cap every count at H*; the excess forms R¹."""
    kept: list[Counts] = []
    residue: Counts = {}
    for q in groups:
        cap = h_star(q, l)
        k = {v: min(c, cap) for v, c in q.items() if min(c, cap) > 0}
        kept.append(k)
        for v, c in q.items():
            if c > cap:
                residue[v] = residue.get(v, 0) + c - cap
    return kept, residue


def _phase_two(st: _State) -> bool:
    """SPEC §1.5. Returns True when R became l-eligible (TP ends in phase two)."""
    h_r = st.r_h
    by_value: dict[int, list[int]] = {}
    for i, counts in enumerate(st.g):
        if not st.dead(i):
            for v in counts:
                by_value.setdefault(v, []).append(i)  # indices ascend: already heaps
    values = [(st.r.get(v, 0), v) for v in by_value]
    heapq.heapify(values)

    def first_alive(v: int) -> int | None:
        heap = by_value[v]
        while heap:
            i = heap[0]
            # a group without v, or dead, stays so for the rest of phase two (Lemma 5.11)
            if st.g[i].get(v, 0) >= 1 and not st.dead(i):
                return i
            heapq.heappop(heap)
        return None

    while values:
        r_v, v = values[0]
        if r_v != st.r.get(v, 0):
            heapq.heappop(values)  # stale key; a fresh one was pushed when R(v) grew
            continue
        q = first_alive(v)
        if q is None:
            heapq.heappop(values)  # v is no longer alive, and never will be again
            continue
        batch = [v] if st.size[q] > st.l * st.h(q) else st.pillars(q)  # fat: one v; thin: every pillar
        for u in batch:
            st.move(q, u)
            if u in by_value:
                heapq.heappush(values, (st.r[u], u))
        if st.r_h != h_r:
            raise InternalError(f"TP phase two raised h(R) from {h_r} to {st.r_h} (Lemma 5.11 violated)")
        if st.eligible():
            return True
    return False


def _phase_three(st: _State, limit: int) -> None:
    """SPEC §1.6: greedy set cover over R's pillars, then the per-group rules, until R is l-eligible.

    The per-round scans over all groups (the greedy's scores, which groups are alive) run on a numpy
    mirror of the counts; the moves themselves go through :class:`_State` one by one, in SPEC's order.
    """
    l = st.l
    groups = [i for i, n in enumerate(st.size) if n]  # every group is dead now; empty ones stay ignored
    values = sorted({v for i in groups for v in st.g[i]} | set(st.r))
    st.row_of = {i: k for k, i in enumerate(groups)}
    st.col_of = {v: j for j, v in enumerate(values)}
    mat = np.zeros((len(groups), len(values)), dtype=np.int64)
    for k, i in enumerate(groups):
        for v, c in st.g[i].items():
            mat[k, st.col_of[v]] = c
    st.mat = mat
    big = len(values) + 1
    # per group: h, size and the pillar mask, refreshed for the rows that changed since the last look
    h = mat.max(axis=1) if len(values) else np.zeros(len(groups), dtype=np.int64)
    size = mat.sum(axis=1)
    pillar = (mat == h[:, None]) & (mat > 0)

    def refresh() -> None:
        if st.dirty:
            rows = np.fromiter(st.dirty, dtype=np.int64, count=len(st.dirty))
            st.dirty.clear()
            sub = mat[rows]
            h[rows] = sub.max(axis=1)
            size[rows] = sub.sum(axis=1)
            pillar[rows] = (sub == h[rows][:, None]) & (sub > 0)

    try:
        for _ in range(limit):
            moves_before = st.moves
            # step 1: greedy set cover. Q covers the pillars of R that are not its conflicting pillars;
            # C(Q) ∩ P = pillars(Q) ∩ P since P ⊆ pillars(R). Tie: the smallest group index.
            refresh()
            cover = [st.col_of[v] for v in sorted(st.r_pillars)]
            blocked = size == 0
            chosen: list[int] = []
            while cover:
                score = np.where(blocked, big, pillar[:, cover].sum(axis=1))
                k = int(np.argmin(score)) if len(score) else -1
                if k < 0 or score[k] >= len(cover):  # Lemma 5.14: some group always covers a pillar of R
                    raise InternalError(
                        "TP phase three: no QI-group covers a pillar of R (Lemma 5.14 violated)"
                    )
                chosen.append(k)
                blocked[k] = True
                cover = [j for j in cover if pillar[k, j]]
            for k in chosen:
                st.move_pillars(groups[k])
                if st.eligible():
                    return
            # step 2: every group back to dead, in index order. h(R) cannot grow here, so pillars(R)
            # only gains values and a group that is dead now stays dead: only the alive ones are visited.
            refresh()
            r_cols = [st.col_of[v] for v in st.r_pillars]
            conflicting = pillar[:, r_cols].any(axis=1)
            alive = (size > 0) & ((size > l * h) | ~conflicting)
            for k in np.flatnonzero(alive).tolist():
                i = groups[k]
                while st.size[i] and not st.dead(i):
                    if st.size[i] > l * st.h(i):  # fat: the smallest value that is not a pillar of R
                        st.move(i, min(v for v in st.g[i] if v not in st.r_pillars))
                    else:  # thin and non-conflicting
                        st.move_pillars(i)
                    if st.eligible():
                        return
            if st.moves == moves_before:
                raise InternalError("TP phase three: a round moved no row")
        raise InternalError(f"TP phase three did not finish within {limit} rounds")
    finally:
        st.mat = None
        st.dirty.clear()


def phases_two_three(kept: Sequence[Counts], residue: Counts, l: int) -> TpOutcome:
    """Phases two and three from the state after phase one (``kept`` groups, R¹)."""
    st = _State(kept, residue, l)
    r1 = dict(st.r)
    if st.eligible():
        return TpOutcome(1, st.g, st.r, r1, st.moved)
    if _phase_two(st):
        return TpOutcome(2, st.g, st.r, r1, st.moved, {"moves": st.moves})
    total = sum(st.size) + st.r_size
    _phase_three(st, max(1, total))
    return TpOutcome(3, st.g, st.r, r1, st.moved, {"moves": st.moves})


def tp_counts(groups: Sequence[Mapping[int, int]], l: int) -> TpOutcome:
    """All three phases of TP on QI-groups given as ``{sid: count}`` (group index = list position)."""
    total: Counts = {}
    for q in groups:
        for v, c in q.items():
            total[v] = total.get(v, 0) + c
    if not l_eligible(total, l):
        raise ValueError(f"the table is not {l}-eligible")
    kept, residue = phase_one(groups, l)
    return phases_two_three(kept, residue, l)
