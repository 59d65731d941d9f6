"""The exchange search's pricing (:mod:`.exchange`): every QI of a class at once, from cached leave-one-out
states, in a few numpy operations per round; the classes' spreads for sideways exchanges
(:meth:`SwapPricer.spread_change`); and each pair's choice among its priced swaps (:func:`best_swaps`).

One fact makes the states cheap. Codes are ordered so that a class's state per QI is fixed by its lowest
and highest code: a numeric QI's state *is* ``[lo, hi]``; a flat QI is unmixed exactly when ``lo = hi``;
and a hierarchy's node ids are a preorder (the subtree of node x is the id range ``x..last[x]``), so the
LCA of a set of nodes is the LCA of its lowest and highest id — every node whose range holds both holds
all ids between. So the state of a class without its i-th row (its *leave-one-out* state) comes from the
running minimum and maximum of its codes from the left and from the right, two ``accumulate`` calls.

Pricing a swap of a_i (class A) with b_j (class B) then needs, per QI, the cost of A's leave-one-out state
of i joined with b_j's code: for a hierarchy (with an LCA table) one lookup in a node × node table of the
cost of the merged node; for a numeric QI ``max(hi, v) − min(lo, v)`` in value space; for a flat QI
``unit`` unless the leave-one-out value equals the code. The QIs are added one after another into one
pairs × |A| × |B| array (a QI × pairs × |A| × |B| temporary cost twice as much), or, where most swaps are
bounded out, into one entry per remaining swap (:meth:`SwapPricer.priced`). The costs are the same numbers
:class:`~.qi.QI` computes state by state (integers when the model is exact), so the search finds
exactly the exchanges it found before.

Rows and cells are gathered, and a class's least or greatest member entry taken, by :mod:`.gathers`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from ...shared.trees import IntArray, Kind, Tree, narrow_dtype
from ..greedy.cost import CostArray, FloatArray
from .gathers import SHORT, columns, highest, lowest, take_cells, take_rows

Zeros = Callable[..., np.ndarray[Any, Any]]  # np.zeros, or the same in shared memory (:mod:`.helper`)

PACK = 1 << 18  # entries of a packed merged-cost table
LEAD_SAMPLE = 1024  # classes of the call that picks the entering bound's first term

Mask = np.ndarray[Any, np.dtype[np.bool_]]


class PricedQI(Protocol):
    """What the pricing reads of one QI (the refinement's :class:`~.qi.QI`)."""

    @property
    def kind(self) -> Kind: ...

    @property
    def codes(self) -> IntArray: ...

    @property
    def table(self) -> IntArray | None: ...

    @property
    def nodes(self) -> int: ...

    @property
    def tree(self) -> Tree | None: ...

    @property
    def node_cost(self) -> CostArray | None: ...

    @property
    def unit(self) -> int | float: ...

    @property
    def values(self) -> CostArray | None: ...


def _loo(x: IntArray) -> tuple[IntArray, IntArray]:
    """Along the last axis (size s ≥ 2): the minimum and the maximum of every entry but the i-th."""
    lo_l = np.minimum.accumulate(x, axis=-1)
    hi_l = np.maximum.accumulate(x, axis=-1)
    lo_r = np.minimum.accumulate(x[..., ::-1], axis=-1)[..., ::-1]
    hi_r = np.maximum.accumulate(x[..., ::-1], axis=-1)[..., ::-1]
    lo, hi = np.empty_like(x), np.empty_like(x)
    lo[..., 0], hi[..., 0] = lo_r[..., 1], hi_r[..., 1]
    lo[..., -1], hi[..., -1] = lo_l[..., -2], hi_l[..., -2]
    lo[..., 1:-1] = np.minimum(lo_l[..., :-2], lo_r[..., 2:])
    hi[..., 1:-1] = np.maximum(hi_l[..., :-2], hi_r[..., 2:])
    return lo, hi


class _Group:
    """The QIs of one kind: their codes per row (QI × n) and leave-one-out states per class."""

    def __init__(self, attrs: Sequence[PricedQI], n: int, dtype: type = np.int64) -> None:
        self.attrs = list(attrs)
        self.codes: IntArray = (
            np.stack([a.codes for a in attrs]).astype(dtype, copy=False)
            if attrs
            else np.zeros((0, n), dtype=dtype)
        )
        self.state: list[np.ndarray[Any, Any]] = []  # per state part: QI × classes × max size

    def alloc(self, k: int, width: int, parts: int, dtype: Any = np.int64, zeros: Zeros = np.zeros) -> None:
        self.state = [zeros((len(self.attrs), k, width), dtype=dtype) for _ in range(parts)]


class _Packed:
    """Hierarchy QIs packed into groups whose merged-cost table (the group's node tuple × leaf tuple →
    Σ cost of the merged nodes) has at most ``PACK`` entries, so one lookup prices several QIs."""

    def __init__(self, tab: Sequence[PricedQI], dtype: Any, codes: IntArray) -> None:
        self.groups: list[list[int]] = []
        width: list[int] = []
        for t in sorted(range(len(tab)), key=lambda t: -tab[t].nodes):
            g = next((g for g, w in enumerate(width) if (w * tab[t].nodes) ** 2 <= PACK), None)
            if g is None:
                self.groups.append([t])
                width.append(tab[t].nodes)
            else:
                self.groups[g].append(t)
                width[g] *= tab[t].nodes
        self.radix = np.zeros((len(self.groups), len(tab)), dtype=np.int64)  # node tuple → packed id
        tables = []
        for g, members in enumerate(self.groups):
            dims = [tab[t].nodes for t in members]
            table = np.zeros(dims + dims, dtype=dtype)
            for pos, t in enumerate(members):
                self.radix[g, t] = int(np.prod(dims[pos + 1 :], dtype=np.int64))
                at = tab[t]
                assert at.node_cost is not None and at.table is not None
                shape = [1] * (2 * len(dims))
                shape[pos] = shape[len(dims) + pos] = at.nodes
                table += at.node_cost[at.table].astype(dtype).reshape(shape)
            tables.append(table.reshape(-1))
        self.nodes = np.array(width, dtype=np.int64)[:, None, None]
        self.offset = np.cumsum([0] + [len(x) for x in tables[:-1]]).astype(np.int64)[:, None, None]
        self.merged: CostArray = np.concatenate(tables) if tables else np.zeros(0, dtype=dtype)
        packed = self.pack(codes)  # per group and row: packed leaves (32-bit where they fit: at scale)
        self.codes: IntArray = packed.astype(narrow_dtype(packed), copy=False)

    def pack(self, nodes: IntArray) -> IntArray:
        """Per group, the packed id of per-QI node ids (QI × ...): Σ radix · node over the group's QIs
        (the same numbers as ``tensordot(radix, nodes, 1)``, without its copies for a few terms)."""
        out = np.empty((len(self.groups), *nodes.shape[1:]), dtype=np.int64)
        for g, members in enumerate(self.groups):
            acc = nodes[members[0]] * self.radix[g, members[0]]
            for t in members[1:]:
                acc = acc + nodes[t] * self.radix[g, t]
            out[g] = acc
        return out


class SwapPricer:
    """Leave-one-out states of every class and the costs of A and B after every swap of a pair."""

    def __init__(self, attrs: Sequence[PricedQI], dtype: Any, n: int) -> None:
        self.dtype = dtype
        tab = [a for a in attrs if a.kind == "hierarchy" and a.table is not None]
        # node ids and flat codes are small: their stacks 32-bit, half the memory; they are widened where they meet the 64-bit offsets and states
        self.hier = _Group(tab, n, narrow_dtype(*(a.codes for a in tab)))
        self.deep = [a for a in attrs if a.kind == "hierarchy" and a.table is None]  # LCA by climbing
        self.deep_codes = [a.codes for a in self.deep]
        self.num = _Group([a for a in attrs if a.kind == "numeric"], n)
        flat = [a for a in attrs if a.kind == "flat"]
        self.flat = _Group(flat, n, narrow_dtype(*(a.codes for a in flat)))
        # hierarchy: LCA tables (node × node, flattened, one after another) to find leave-one-out nodes
        sizes = [a.nodes for a in tab]
        self.offset = np.cumsum([0] + [s * s for s in sizes[:-1]]).astype(np.int64)[:, None, None]
        self.nodes = np.array(sizes, dtype=np.int64)[:, None, None]
        lca = [a.table for a in tab if a.table is not None]
        self.lca: IntArray = np.concatenate(lca) if lca else np.zeros(0, dtype=np.int64)
        self.packed = _Packed(tab, dtype, self.hier.codes)
        # numeric: codes become values (codes are ranks, values ascending)
        vals = [a.codes if a.values is None else a.values[a.codes] for a in self.num.attrs]
        self.num.codes = np.stack(vals).astype(dtype, copy=False) if vals else np.zeros((0, n), dtype=dtype)
        self.num_unit = np.array([a.unit for a in self.num.attrs], dtype=dtype)[:, None, None, None]
        self.flat_unit = np.array([a.unit for a in self.flat.attrs], dtype=dtype)[:, None, None, None]
        self.sideways = False  # sideways exchanges now: bounds at the cost admitted, spreads kept
        # exact costs: a distance is a whole number below ``top`` (every QI at its widest), so sums of a few
        # are exact in a double, in any order (:meth:`_sum`)
        top = sum(int(a.node_cost.max(initial=0)) for a in attrs if a.node_cost is not None) + int(
            self.flat_unit.sum()
        )
        top += sum(
            int(u) * int(v.max(initial=0) - v.min(initial=0))
            for u, v in zip(self.num_unit.ravel(), self.num.codes, strict=True)
        )
        self.whole = np.issubdtype(dtype, np.integer) and top * SHORT < 2**53
        # the entering bound's term priced first (:meth:`_entering`): the one that alone rules out the
        # most classes, chosen at the first call with ``LEAD_SAMPLE`` classes or more
        self.lead: int | None = None

    def alloc(self, k: int, width: int, spread: bool = False, zeros: Zeros = np.zeros) -> None:
        """Room for the states of k classes of at most ``width`` rows (and their spreads), made by ``zeros``
        (in shared memory where a forked process writes them too: :mod:`.helper`)."""
        self.hier.state = [zeros((len(self.packed.groups), k, width), dtype=np.int64)]
        self.num.alloc(k, width, 2, self.dtype, zeros)
        self.flat.alloc(k, width, 1, zeros=zeros)
        self.deep_state = [zeros((k, width), dtype=np.int64) for _ in self.deep]
        # per member: the cost of its class without it (its leave-one-out state), and the cheapest per class
        self.loo_cost: CostArray = zeros((k, width), dtype=self.dtype)
        self.loo_min: CostArray = zeros(k, dtype=self.dtype)
        # per member: Σ of its distances to its class's other rows (for sideways exchanges only)
        self.spread = zeros((k, width) if spread else (0, 0), dtype=np.float64)
        # per class, its core (the state inside every leave-one-out state, sizes ≥ 3): packed hierarchy
        # states, numeric lo and hi, flat values
        self.core = [
            zeros((len(self.packed.groups), k), dtype=np.int64),
            zeros((len(self.num.attrs), k), dtype=self.dtype),
            zeros((len(self.num.attrs), k), dtype=self.dtype),
            zeros((len(self.flat.attrs), k), dtype=np.int64),
        ]
        self.core.append(zeros((len(self.flat.attrs), k), dtype=np.int64))
        # per class and member: its row's packed hierarchy codes, numeric values and flat codes, so the
        # entering bound gathers a class's rows as one row of each (not one scattered gather per member)
        self.member = [
            zeros((len(self.packed.groups), k, width), dtype=self.packed.codes.dtype),
            zeros((len(self.num.attrs), k, width), dtype=self.num.codes.dtype),
            zeros((len(self.flat.attrs), k, width), dtype=self.flat.codes.dtype),
        ]

    def refresh(self, members: IntArray, classes: IntArray) -> None:
        """Recompute the leave-one-out states of ``classes`` (rows ``members``: classes × size, size ≥ 2)."""
        size = members.shape[1]
        cost: CostArray = np.zeros(members.shape, dtype=self.dtype)  # per member: its leave-one-out cost
        rows = [  # the members' packed hierarchy codes, numeric values, flat codes: gathered once
            np.take(codes, members, axis=1) if len(held) else None
            for held, codes in zip(
                self.member, (self.packed.codes, self.num.codes, self.flat.codes), strict=True
            )
        ]
        for held, got in zip(self.member, rows, strict=True):
            if got is not None:
                held[:, classes, :size] = got
        if len(self.hier.attrs):
            lo, hi = _loo(np.take(self.hier.codes, members, axis=1))
            node = np.take(self.lca, self.offset + lo * self.nodes + hi)
            pk = self.packed
            sup = pk.pack(node)
            state = pk.offset + sup * pk.nodes
            self.hier.state[0][:, classes, :size] = state
            cost += np.take(pk.merged, state + sup).sum(axis=0)
            # the deepest node of each QI: they form a chain (size ≥ 3)
            self.core[0][:, classes] = pk.offset[:, :, 0] + pk.pack(highest(node)) * pk.nodes[:, :, 0]
        if len(self.num.attrs):
            assert rows[1] is not None
            lo, hi = _loo(rows[1])
            self.num.state[0][:, classes, :size] = lo
            self.num.state[1][:, classes, :size] = hi
            cost += ((hi - lo) * self.num_unit[:, :, :, 0]).sum(axis=0)
            self.core[1][:, classes], self.core[2][:, classes] = highest(lo), lowest(hi)
        if len(self.flat.attrs):
            assert rows[2] is not None
            lo, hi = _loo(rows[2])
            state = np.where(lo == hi, lo, -1)
            self.flat.state[0][:, classes, :size] = state
            cost += ((state < 0) * self.flat_unit[:, :, :, 0]).sum(axis=0)
            self.core[3][:, classes] = highest(state)
        for at, codes, deep in zip(self.deep, self.deep_codes, self.deep_state, strict=True):
            assert at.node_cost is not None
            lo, hi = _loo(codes[members])
            deep[classes, :size] = climb(at.tree, lo, hi)
            cost += at.node_cost[deep[classes, :size]]
        self.loo_cost[classes, :size] = cost
        self.loo_min[classes] = lowest(cost)
        if self.sideways:
            self.refresh_spread(members, classes)

    def refresh_spread(self, members: IntArray, classes: IntArray) -> None:
        """Recompute the spreads of ``classes`` (rows ``members``: classes × size): per member, Σ of its
        distances to the class's other rows, each pair of members priced once."""
        size = members.shape[1]
        i, j = np.triu_indices(size, 1)
        self.spread[classes, :size] = self.distance(members[:, i], members[:, j]) @ _incidence(size)

    def distance(self, x: IntArray, y: IntArray) -> FloatArray:
        """Per entry: the distance of rows x and y — the cost of a class of the two (SPEC §0.7, weighted,
        scaled), so a class's *spread*, Σ over its pairs of rows, is a smooth companion of its cost."""
        out: FloatArray = np.zeros(np.broadcast_shapes(x.shape, y.shape), dtype=np.float64)
        pk = self.packed
        for g in range(len(pk.groups)):
            base = pk.offset[g, 0, 0] + np.take(pk.codes[g], x).astype(np.int64) * pk.nodes[g, 0, 0]
            out += np.take(pk.merged, base + np.take(pk.codes[g], y))
        for q in range(len(self.num.attrs)):
            gap = np.abs(np.take(self.num.codes[q], x) - np.take(self.num.codes[q], y))
            out += gap * self.num_unit[q, 0, 0, 0]
        for q in range(len(self.flat.attrs)):
            differ = np.take(self.flat.codes[q], x) != np.take(self.flat.codes[q], y)
            out += differ * self.flat_unit[q, 0, 0, 0]
        for at, codes in zip(self.deep, self.deep_codes, strict=True):
            assert at.node_cost is not None
            out += at.node_cost[climb(at.tree, codes[x], codes[y])]
        return out

    def spread_change(
        self, ma: IntArray, mb: IntArray, a: IntArray, b: IntArray, swaps: tuple[np.ndarray[Any, Any], ...]
    ) -> FloatArray:
        """The change of spread(A) + spread(B) by each swap (pair p, a_i, b_j) listed in ``swaps``: A loses
        a_i's distances to its rows and gains b_j's to every row of A but a_i; B likewise."""
        p, i, j = swaps
        listed = np.zeros(len(ma), dtype=bool)
        listed[p] = True
        at = np.flatnonzero(listed)  # the pairs with a swap listed, and each swap's place among them
        local = (np.cumsum(listed) - 1)[p]
        cross = self._cross(
            np.take(a, at), np.take(b, at), take_rows(ma, at), take_rows(mb, at)
        )  # a_i to b_j
        into_a, into_b = self._sum(cross, 1), self._sum(cross, 2)  # b_j to all of A, a_i to all of B
        c = np.take(cross.reshape(-1), (local * cross.shape[1] + i) * cross.shape[2] + j)
        out: FloatArray = (take_cells(into_a, local, j) - c - take_cells(self.spread, a[p], i)) + (
            take_cells(into_b, local, i) - c - take_cells(self.spread, b[p], j)
        )
        return out

    def _sum(self, x: FloatArray, axis: int) -> FloatArray:
        """``x.sum(axis)``; distances of exact costs (whole numbers, :attr:`whole`) over a class's few members
        column by column: ~3× faster, and the same numbers in any order."""
        if not self.whole or x.shape[axis] > SHORT:
            return x.sum(axis=axis)  # type: ignore[no-any-return]
        return columns(np.add, np.moveaxis(x, axis, -1))

    def _cross(self, ca: IntArray, cb: IntArray, ra: IntArray, rb: IntArray) -> FloatArray:
        """(pairs × |A| × |B|): :meth:`distance` of a_i and b_j (classes ``ca``, ``cb``, rows ``ra``, ``rb``),
        the codes read from the per-member copies (:attr:`member`: one row gathered per class, not one
        scattered entry per member). The same numbers, added in the same order."""
        sa, sb = ra.shape[1], rb.shape[1]
        out: FloatArray = np.zeros((len(ca), sa, sb), dtype=np.float64)
        pk = self.packed
        held_hier, held_num, held_flat = self.member
        for g in range(len(pk.groups)):
            x = take_rows(held_hier[g], ca)[:, :sa, None].astype(np.int64)
            base = pk.offset[g, 0, 0] + x * pk.nodes[g, 0, 0]
            out += np.take(pk.merged, base + take_rows(held_hier[g], cb)[:, None, :sb])
        for q in range(len(self.num.attrs)):
            gap = np.abs(take_rows(held_num[q], ca)[:, :sa, None] - take_rows(held_num[q], cb)[:, None, :sb])
            out += gap * self.num_unit[q, 0, 0, 0]
        for q in range(len(self.flat.attrs)):
            differ = take_rows(held_flat[q], ca)[:, :sa, None] != take_rows(held_flat[q], cb)[:, None, :sb]
            out += differ * self.flat_unit[q, 0, 0, 0]
        for at, codes in zip(self.deep, self.deep_codes, strict=True):
            assert at.node_cost is not None
            out += at.node_cost[climb(at.tree, codes[ra][:, :, None], codes[rb][:, None, :])]
        return out

    def _entering(
        self, cls: IntArray, other: IntArray, size: int, hopeful: Callable[[CostArray], Mask]
    ) -> tuple[IntArray, CostArray]:
        """(classes × rows): a lower bound on the cost of class ``cls[p]`` (size ≥ 3) without any one of
        its rows and with the j-th row of class ``other[p]`` (of ``size`` rows): its *core* (per QI the
        state inside every leave-one-out state — the deepest node of their chain, the intersection of
        their ranges, the unmixed value if any) joined with the row. Deep trees add 0. Returned for the classes ``p`` (first) where ``hopeful``
        holds for the per-class least of one QI term (:attr:`lead`): the terms are ≥ 0, so that least is
        below every row's bound, and a class it rules out the whole bound rules out too. The kept
        classes' bounds are the sums of every term in their usual order (the same numbers)."""
        terms = self._terms()
        lead = self.lead
        if lead is None:
            lead = 0
            if len(terms) > 1 and len(cls) >= LEAD_SAMPLE:  # once: every term priced, the sharpest kept
                ruled_out = [int((~hopeful(lowest(term(cls, other, size)))).sum()) for term in terms]
                lead = self.lead = int(np.argmax(ruled_out))
        first = terms[lead](cls, other, size)
        kept = np.flatnonzero(hopeful(lowest(first)))
        if len(kept) < len(cls):
            cls, other, first = take_rows(cls, kept), take_rows(other, kept), take_rows(first, kept)
        out: CostArray = np.zeros(first.shape, dtype=self.dtype)
        for t, term in enumerate(terms):
            out += first if t == lead else term(cls, other, size)
        return kept, out

    def _terms(self) -> list[Callable[[IntArray, IntArray, int], CostArray]]:
        """The terms of :meth:`_entering`'s bound in the order they are summed: per packed hierarchy
        group, per numeric QI, per flat QI (each ≥ 0). A term of (classes ``cls``, classes ``other`` of
        ``size`` rows) reads the other classes' rows from :attr:`member` (one row gathered per class)."""
        merged = self.packed.merged
        held_hier, held_num, held_flat = self.member

        def rows_of(held: np.ndarray[Any, Any], other: IntArray, size: int) -> np.ndarray[Any, Any]:
            return take_rows(held, other)[:, :size]

        def hier(g: int) -> Callable[[IntArray, IntArray, int], CostArray]:
            def term(cls: IntArray, other: IntArray, size: int) -> CostArray:
                at = np.take(self.core[0][g], cls)[:, None] + rows_of(held_hier[g], other, size)
                return np.take(merged, at)  # type: ignore[no-any-return]

            return term

        def num(q: int) -> Callable[[IntArray, IntArray, int], CostArray]:
            def term(cls: IntArray, other: IntArray, size: int) -> CostArray:
                v = rows_of(held_num[q], other, size)
                hi, lo = np.take(self.core[2][q], cls)[:, None], np.take(self.core[1][q], cls)[:, None]
                span = np.maximum(hi, v) - np.minimum(lo, v)
                return span * self.num_unit[q, 0, 0, 0]  # type: ignore[no-any-return]

            return term

        def flat(q: int) -> Callable[[IntArray, IntArray, int], CostArray]:
            def term(cls: IntArray, other: IntArray, size: int) -> CostArray:
                held = np.take(self.core[3][q], cls)[:, None]
                return (held != rows_of(held_flat[q], other, size)) * self.flat_unit[q, 0, 0, 0]  # type: ignore[no-any-return]

            return term

        out = [hier(g) for g in range(self.core[0].shape[0])] + [num(q) for q in range(self.core[1].shape[0])]
        out += [flat(q) for q in range(self.core[3].shape[0])]
        return out or [lambda cls, other, size: np.zeros((len(cls), size), dtype=self.dtype)]

    def hopeful(self, a: IntArray, b: IntArray, sa: int, sb: int, now: CostArray) -> Mask:
        """Per pair (classes of sizes sa, sb): False when no swap can bring |A|·cost(A') + |B|·cost(B')
        below ``now`` (A' = A − a_i + b_j), because A' costs at least A's cheapest leave-one-out state,
        and B' likewise."""
        return sa * self.loo_min[a] + sb * self.loo_min[b] < now  # type: ignore[no-any-return]

    def bounds(
        self, mem: IntArray, a: IntArray, b: IntArray, sa: int, sb: int, now: CostArray
    ) -> tuple[Mask, Mask, IntArray, IntArray]:
        """Lower bounds on |A|·cost(A') + |B|·cost(B') after swapping a_i and b_j (classes ``a[p]``,
        ``b[p]`` of sizes sa, sb; rows ``mem``): A' costs at least A without a_i and, when |A| ≥ 3, at
        least A's core joined with b_j; B' likewise (each is the cost of a state inside A' or B', and a
        join never costs less than its parts). Returns, per pair, whether its cheapest bound is below
        ``now`` (or at it, with sideways exchanges); for those pairs (pairs × |A| × |B|) which swaps'
        bounds are; and their rows (A's, B's).

        The bounds are taken cheapest first, each on the pairs the previous one kept: the cheapest
        leave-one-out states (cached per class), then A's core with B's rows, then B's core with A's.
        Each test's bound is at least the ones before it, so a pair kept at the end passed them all, and
        a test the next one holds may be left out: the cheapest states' when |A| ≥ 3 (it kept 96 % of
        the pairs at 1M rows)."""
        # 1-D gathers and masks by np.take / np.compress too (a boolean mask's indexing costs 4× as much)
        if sa >= 3:  # the entering bound's first test holds this one (its bound is at least the states')
            keep: Mask = np.ones(len(a), dtype=bool)
            at, a_at, b_at = np.arange(len(a)), a, b
        else:
            keep = self._under(sa * np.take(self.loo_min, a) + sb * np.take(self.loo_min, b), now)
            at = np.flatnonzero(keep)
            a_at, b_at = np.take(a, at), np.take(b, at)
        low_a, low_b = np.take(self.loo_min, a_at), np.take(self.loo_min, b_at)
        enter_a = None  # pairs × |B|
        if sa >= 3:
            ahead = np.take(now, at)
            kept, enter_a = self._entering(
                a_at, b_at, sb, lambda low: self._under(sa * np.maximum(low_a, low) + sb * low_b, ahead)
            )
            at, low_a, low_b = (take_rows(x, kept) for x in (at, low_a, low_b))
            low_a = np.maximum(low_a, lowest(enter_a))
            still = self._under(sa * low_a + sb * low_b, np.take(now, at))
            at, low_a, low_b = (take_rows(x, still) for x in (at, low_a, low_b))
            enter_a = take_rows(enter_a, still)
        a_at, b_at = np.take(a, at), np.take(b, at)
        enter_b = None  # pairs × |A|
        if sb >= 3:
            ahead = np.take(now, at)
            kept, enter_b = self._entering(
                b_at, a_at, sa, lambda low: self._under(sa * low_a + sb * np.maximum(low_b, low), ahead)
            )
            at, low_a, low_b = (take_rows(x, kept) for x in (at, low_a, low_b))
            if enter_a is not None:
                enter_a = take_rows(enter_a, kept)
            still = self._under(sa * low_a + sb * np.maximum(low_b, lowest(enter_b)), np.take(now, at))
            at, enter_b = take_rows(at, still), take_rows(enter_b, still)
            if enter_a is not None:
                enter_a = take_rows(enter_a, still)
        keep[:] = False
        keep[at] = True
        a_at, b_at, now_at = np.take(a, at), np.take(b, at), np.take(now, at)
        # the rows of the pairs kept at the end only: not carried through the tests
        ma, mb = take_rows(mem, a_at)[:, :sa], take_rows(mem, b_at)[:, :sb]
        swap_a = take_rows(self.loo_cost, a_at)[:, :sa, None]
        if enter_a is not None:
            swap_a = np.maximum(swap_a, enter_a[:, None, :])
        swap_b = take_rows(self.loo_cost, b_at)[:, None, :sb]
        if enter_b is not None:
            swap_b = np.maximum(swap_b, enter_b[:, :, None])
        return keep, self._under(sa * swap_a + sb * swap_b, now_at[:, None, None]), ma, mb

    def _under(self, bound: CostArray, now: CostArray) -> Mask:
        """Where a swap may still be applied: its bound below the cost, or (sideways exchanges) at it."""
        return bound <= now if self.sideways else bound < now

    def priced(
        self, ma: IntArray, mb: IntArray, a: IntArray, b: IntArray, swaps: tuple[np.ndarray[Any, Any], ...]
    ) -> tuple[CostArray, CostArray]:
        """The costs of A and of B after the swaps (pair p, a_i, b_j) listed in ``swaps`` = (p, i, j): the
        numbers :meth:`costs` gives at those places, summed in the same order."""
        p, i, j = swaps
        return self._joined_at(np.take(a, p), i, take_cells(mb, p, j)), self._joined_at(
            np.take(b, p), j, take_cells(ma, p, i)
        )

    def _joined_at(self, cls: IntArray, pos: IntArray, row: IntArray) -> CostArray:
        """Per entry: the cost of class ``cls`` without its member at ``pos`` and with ``row`` (every state
        array is classes × width: the flat places computed once for all of them)."""
        at = cls * self.loo_cost.shape[1] + pos
        return self._price(lambda state: np.take(state.reshape(-1), at), row, (len(cls),))

    def _price(self, take: Callable[[Any], Any], row: IntArray, shape: tuple[int, ...]) -> CostArray:
        """The cost of classes' leave-one-out states joined with rows, summed QI by QI into one array of
        ``shape`` (no QI × entries temporary): ``take`` picks the states from a classes × members array."""
        out: CostArray = np.zeros(shape, dtype=self.dtype)
        hier, merged = self.hier.state[0], self.packed.merged
        for g in range(hier.shape[0]):
            out += np.take(merged, take(hier[g]) + np.take(self.packed.codes[g], row))
        lo, hi = self.num.state
        for q in range(lo.shape[0]):
            v = np.take(self.num.codes[q], row)
            out += (np.maximum(take(hi[q]), v) - np.minimum(take(lo[q]), v)) * self.num_unit[q, 0, 0, 0]
        flat = self.flat.state[0]
        for q in range(flat.shape[0]):
            out += (take(flat[q]) != np.take(self.flat.codes[q], row)) * self.flat_unit[q, 0, 0, 0]
        for at, codes, state in zip(self.deep, self.deep_codes, self.deep_state, strict=True):
            assert at.node_cost is not None
            out += at.node_cost[climb(at.tree, take(state), codes[row])]
        return out

    def costs(self, ma: IntArray, mb: IntArray, a: IntArray, b: IntArray) -> tuple[CostArray, CostArray]:
        """(pairs × |A| × |B|): the costs of A and of B after swapping a_i (rows ``ma``) and b_j (``mb``).
        Two classes of two: A without a_i is the row a_{1−i}, and a merged state's cost is symmetric in
        its two rows, so B's cost after swapping a_i and b_j (rows b_{1−j}, a_i) is A's after swapping
        a_{1−i} and b_{1−j} — the same numbers, priced once."""
        cost_a = self._joined(a, ma.shape[1], mb)
        if ma.shape[1] == mb.shape[1] == 2:
            return cost_a, cost_a[:, ::-1, ::-1]
        return cost_a, self._joined(b, mb.shape[1], ma).transpose(0, 2, 1)

    def _joined(self, cls: IntArray, size: int, rows: IntArray) -> CostArray:
        """(pairs × size × |rows|): the cost of class ``cls[p]`` without its i-th row and with
        ``rows[p, j]`` (the states sliced, not gathered member by member: a tenth faster)."""
        shape = (len(cls), size, rows.shape[1])
        return self._price(lambda state: state[cls, :size, None], rows[:, None, :], shape)


def improves(delta: CostArray, now: CostArray, exact: bool) -> Mask:
    """Where a change of a pair's cost ``now`` lowers it: below 0 (exact costs), or beyond the rounding
    of the pair's cost (inexact costs)."""
    return delta < 0 if exact else delta < -1e-12 * np.maximum(1.0, np.abs(now))


def best_swaps(
    swaps: tuple[np.ndarray[Any, Any], ...],
    delta: CostArray,
    spread: FloatArray | None,
    now: CostArray,
    exact: bool,
) -> IntArray:
    """Of priced swaps (pair, i, j in row-major order) with their IL changes, the best improving one of
    each pair: the lowest change, then (sideways exchanges, ``spread`` given) the lowest spread change,
    then the first in (i, j) order — the dense argmin's choice without sideways exchanges (a swap left
    unpriced has a bound above the cost, or at it without sideways exchanges, so it never is that choice).
    With ``spread``, a swap that keeps the IL (exactly; inexact costs: not beyond rounding, never up) is
    taken when it lowers the spread of the two classes."""
    p = swaps[0]
    good = improves(delta, now[p], exact)
    if spread is not None:
        level = delta == 0 if exact else (delta <= 0) & ~good
        good |= level & (spread < -1e-9 * np.maximum(1.0, np.abs(now[p])))
    cand = np.flatnonzero(good)
    keys = (cand, delta[cand], p[cand]) if spread is None else (cand, spread[cand], delta[cand], p[cand])
    order = cand[np.lexsort(keys)]
    first = np.r_[True, p[order][1:] != p[order][:-1]] if len(order) else np.zeros(0, dtype=bool)
    return order[first]


@functools.cache
def _incidence(size: int) -> FloatArray:
    """(pairs of members × members): 1 where the pair (in ``triu_indices`` order) holds the member."""
    i, j = np.triu_indices(size, 1)
    out = np.zeros((len(i), size), dtype=np.float64)
    out[np.arange(len(i)), i] = out[np.arange(len(i)), j] = 1.0
    return out


def climb(tree: Tree | None, x: IntArray, y: IntArray) -> IntArray:
    """LCA of node arrays x and y (a tree too big for a table): climb x until its id range holds y."""
    assert tree is not None
    x, y = np.broadcast_arrays(x, y)
    x = x.copy()
    while True:
        out = ~((x <= y) & (y <= tree.last[x]))
        if not out.any():
            return x
        x[out] = tree.parent[x[out]]
