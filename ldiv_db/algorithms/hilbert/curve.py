"""Ghinita et al.'s "Hilbert" l-diversity heuristic (VLDB 2007), as SPEC §1.12 reconstructs it: map the
QI points to a Hilbert curve, then cut the 1-D order into l-eligible groups. ``--algorithm hilbert`` runs it
on the whole table (TP's baseline); TP+ runs it on TP's residue (:func:`split_rows`).

SQL ranks every QI value in its domain (``sql/hilbert/domains.sql``) and fetches the rows' ranks
(``sql/hilbert/coords.sql``, one query); the curve index and the grouping are one vectorized numpy pass
plus a loop over groups in Python.

The Ghinita text is not available; the index follows Skilling ("Programming the Hilbert curve", 2004)
and the grouping rule is SPEC §1.12(c) [R/D]. If the original becomes available, align
:func:`hilbert_l_groups` with it (SPEC §1.13 item 6).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ...errors import BadInput, InternalError
from ...sqlgen.render import TableRef, render
from ..base import AnonymizeRequest

# models an l-eligible partition satisfies with the same l (SPEC §0.2: max p ≤ 1/l ⇒ ≥ l values and
# Shannon entropy ≥ min-entropy ≥ ln l)
IMPLIED_MODELS = ("frequency", "distinct", "entropy")

IntArray = npt.NDArray[np.int64]


def bits_for(domain_sizes: Sequence[int]) -> int:
    """b = max(1, ⌈log2(largest domain size)⌉) (SPEC §1.12(a))."""
    largest = max((int(s) for s in domain_sizes), default=1)
    return max(1, (largest - 1).bit_length())


def hilbert_keys(coords: npt.ArrayLike, bits: int) -> npt.NDArray[Any]:
    """Hilbert index of each row of ``coords`` (n × d non-negative integers < 2**bits), vectorized.

    Skilling's AxesToTranspose (SPEC §1.12(b)): the "inverse undo" loop, Gray encoding, then the bits
    interleaved from the most significant bit-plane down, axis 0 first. An int64 array when d·bits ≤ 63,
    else an object array of Python ints.
    """
    arr = np.asarray(coords, dtype=np.int64)
    if arr.ndim != 2:
        raise ValueError("coords must be a 2-D array (rows × dimensions)")
    n, d = arr.shape
    if n and (arr.min() < 0 or arr.max() >= (1 << bits)):
        raise ValueError(f"coordinates must lie in [0, 2**{bits})")
    x = [arr[:, i].astype(np.uint64) for i in range(d)]
    top = np.uint64(1 << (bits - 1))
    one, zero = np.uint64(1), np.uint64(0)
    q = top
    while q > 1:  # in place: no new array of all the rows per bit level and axis
        p = np.uint64(q - one)
        for i in range(d):
            high = (x[i] & q) != 0
            np.bitwise_xor(x[0], p, out=x[0], where=high)  # invert the low bits of axis 0
            t = (x[0] ^ x[i]) & p  # or exchange them with axis i
            t[high] = zero
            x[0] ^= t
            x[i] ^= t
        q = np.uint64(q >> one)
    for i in range(1, d):  # Gray encode
        x[i] ^= x[i - 1]
    t = np.zeros(n, dtype=np.uint64)
    q = top
    while q > 1:
        np.bitwise_xor(t, np.uint64(q - one), out=t, where=(x[d - 1] & q) != 0)
        q = np.uint64(q >> one)
    for i in range(d):
        x[i] ^= t
    if d * bits <= 63:
        key = np.zeros(n, dtype=np.uint64)
        for plane in range(bits - 1, -1, -1):
            shift = np.uint64(plane)
            for i in range(d):
                key <<= one
                key |= (x[i] >> shift) & one
        return key.astype(np.int64)  # below 2**63
    big = np.zeros(n, dtype=object)
    for plane in range(bits - 1, -1, -1):
        for i in range(d):
            big = (big << 1) | ((x[i] >> np.uint64(plane)) & np.uint64(1)).astype(np.int64).astype(object)
    return big


def curve_order(keys: npt.NDArray[Any], rids: npt.ArrayLike) -> IntArray:
    """Positions sorted by (Hilbert key, row id)."""
    r = np.asarray(rids, dtype=np.int64)
    if keys.dtype != object:
        return np.lexsort((r, keys)).astype(np.int64)
    return np.array(sorted(range(len(r)), key=lambda i: (keys[i], r[i])), dtype=np.int64)


def stars_of(coords: IntArray, members: Sequence[int] | IntArray) -> int:
    """Definition 1 (SPEC §0.5): |G| × the number of QI attributes not constant on G."""
    if len(members) == 0:
        return 0
    block = coords[np.asarray(members, dtype=np.int64)]
    return int(len(members) * int((block.min(axis=0) != block.max(axis=0)).sum()))


@dataclass(frozen=True)
class Grouping:
    """Hilbert-l's result: ``group[i]`` = 0-based group of row i (input order); ``stars`` of all groups."""

    group: IntArray
    groups: int
    stars: int
    max_l_from: int | None  # the group number at which Max-l mode started (None: never)
    leftovers: int


def hilbert_l_groups(
    coords: IntArray, sids: npt.ArrayLike, rids: npt.ArrayLike, l: int, bits: int | None = None
) -> Grouping:
    """SPEC §1.12(c): cut the rows (an l-eligible set) into l-eligible groups along the Hilbert curve.

    Rows are sorted by (key, row id) and bucketed by SA value. While ≥ l buckets are non-empty, a group
    takes the head of every critical bucket (|b|·l > n − l) plus the bucket with the globally first head,
    filled up to l buckets by increasing head; once more than l buckets are critical, it takes the heads
    of the l largest buckets (Max-l). The few leftover rows join the group without their SA value that
    gains the fewest stars. ``bits`` comes from the domain sizes of the whole table (SPEC §1.12(a));
    by default from the largest coordinate present.
    """
    coords = np.asarray(coords, dtype=np.int64)
    sid_arr = np.asarray(sids, dtype=np.int64)
    n_rows = len(sid_arr)
    group = np.full(n_rows, -1, dtype=np.int64)
    if n_rows == 0:
        return Grouping(group, 0, 0, None, 0)
    d = coords.shape[1]
    if bits is None:
        bits = bits_for([int(coords[:, i].max()) + 1 for i in range(d)] if d else [])
    keys = hilbert_keys(coords, bits) if d else np.zeros(n_rows, dtype=np.int64)
    order = curve_order(keys, rids)
    pos_sid = sid_arr[order]
    groups, leftovers, max_l_from = _pick_groups(pos_sid, l)
    pos_group = np.full(n_rows, -1, dtype=np.int64)
    sizes = np.fromiter((len(m) for m in groups), dtype=np.int64, count=len(groups))
    pos_group[np.fromiter(itertools.chain.from_iterable(groups), dtype=np.int64, count=int(sizes.sum()))] = (
        np.repeat(np.arange(len(groups), dtype=np.int64), sizes)
    )
    if leftovers:
        _place_leftovers(pos_group, pos_sid, coords[order], leftovers, len(groups))
    group[order] = pos_group
    stars = 0
    if d:  # Definition 1 per group: its size times its QIs whose smallest and largest coordinate differ
        by_group = np.argsort(group, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(group[by_group]) != 0])
        block = coords[by_group]
        lo, hi = np.minimum.reduceat(block, starts, axis=0), np.maximum.reduceat(block, starts, axis=0)
        gsize = np.diff(np.r_[starts, n_rows])
        stars = int((gsize * (lo != hi).sum(axis=1)).sum())
    return Grouping(group, len(groups), stars, max_l_from, len(leftovers))


def _pick_groups(pos_sid: IntArray, l: int) -> tuple[list[list[int]], list[int], int | None]:
    """The groups of curve positions (see :func:`hilbert_l_groups`), the leftover positions, and the
    group from which Max-l picked (None: never). While no bucket is critical the rule takes the l
    buckets with the first heads, which a heap of the heads gives without looking at every bucket; a
    group with a critical bucket, and every Max-l group, is chosen by :func:`_choose` from all of them."""
    # buckets: per SA id, its rows' curve positions in curve order; the head is the first unused one
    by_sid = np.argsort(pos_sid, kind="stable")
    values, starts = np.unique(pos_sid[by_sid], return_index=True)
    ends = [*starts[1:].tolist(), len(by_sid)]
    buckets = {
        s: by_sid[a:b].tolist() for s, a, b in zip(values.tolist(), starts.tolist(), ends, strict=True)
    }
    head = dict.fromkeys(buckets, 0)
    size = {s: len(b) for s, b in buckets.items()}  # the active buckets' sizes (a bucket used up leaves)
    heads = [(b[0], s) for s, b in buckets.items()]  # (head position, SA id) of the active buckets
    heapq.heapify(heads)
    remaining = len(pos_sid)
    groups: list[list[int]] = []
    max_l_from: int | None = None
    pop, push = heapq.heappop, heapq.heappush
    while len(size) >= l:
        if max_l_from is None and max(size.values()) * l <= remaining - l:  # no bucket is critical
            chosen = [pop(heads)[1] for _ in range(l)]
            fast = True
        else:
            crit = [] if max_l_from is not None else [s for s in size if size[s] * l > remaining - l]
            if len(crit) > l:
                max_l_from = len(groups)
            chosen = _choose(buckets, head, size, crit, l, max_l=max_l_from is not None)
            fast = False
        members = []
        for s in chosen:
            h = head[s]
            members.append(buckets[s][h])
            head[s] = h + 1
            size[s] -= 1
            if not size[s]:
                del size[s]
            elif fast:
                push(heads, (buckets[s][h + 1], s))
        if not fast:
            heads = [(buckets[s][head[s]], s) for s in size]
            heapq.heapify(heads)
        remaining -= len(members)
        groups.append(members)
    if not groups:
        raise InternalError("Hilbert: the rows to group are not l-eligible")
    leftovers = [buckets[s][k] for s in sorted(size) for k in range(head[s], len(buckets[s]))]
    return groups, leftovers, max_l_from


def _choose(
    buckets: dict[int, list[int]],
    head: dict[int, int],
    size: dict[int, int],
    crit: list[int],
    l: int,
    *,
    max_l: bool,
) -> list[int]:
    """The buckets one group takes (:func:`hilbert_l_groups`): Max-l, the l largest (the first head on
    ties); else the critical ones, the one with the first head, and more by increasing head up to l."""

    def first(s: int) -> int:
        return buckets[s][head[s]]

    if max_l:
        return sorted(size, key=lambda s: (-size[s], first(s)))[:l]
    chosen = sorted(crit, key=first)
    anchor = min(size, key=first)
    if anchor not in chosen:
        chosen.append(anchor)
    if len(chosen) < l:
        taken = set(chosen)
        chosen.extend(sorted((s for s in size if s not in taken), key=first)[: l - len(chosen)])
    return chosen


def _place_leftovers(
    pos_group: IntArray, pos_sid: IntArray, pos_coords: IntArray, leftovers: list[int], n_groups: int
) -> None:
    """Max-l leaves at most one row per bucket: each joins the group without its SA value that gains
    the fewest stars (the first such group on ties), in curve order; fills ``pos_group``."""
    d = pos_coords.shape[1]
    gsize = np.bincount(pos_group[pos_group >= 0], minlength=n_groups).astype(np.int64)
    lo = np.full((n_groups, d), np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full((n_groups, d), -1, dtype=np.int64)
    placed = pos_group >= 0
    np.minimum.at(lo, pos_group[placed], pos_coords[placed])
    np.maximum.at(hi, pos_group[placed], pos_coords[placed])
    for pos in sorted(leftovers):
        s, point = int(pos_sid[pos]), pos_coords[pos]
        has_s = np.zeros(n_groups, dtype=bool)
        has_s[pos_group[(pos_sid == s) & (pos_group >= 0)]] = True
        cand = np.flatnonzero(~has_s)
        if not len(cand):
            cand = np.arange(n_groups)
        mixed = (lo[cand] != hi[cand]).sum(axis=1)
        mixed_after = (np.minimum(lo[cand], point) != np.maximum(hi[cand], point)).sum(axis=1)
        delta = (gsize[cand] + 1) * mixed_after - gsize[cand] * mixed
        g = int(cand[int(np.argmin(delta))])  # argmin: the first group on ties
        pos_group[pos] = g
        gsize[g] += 1
        lo[g] = np.minimum(lo[g], point)
        hi[g] = np.maximum(hi[g], point)


# ------------------------------------------------------------------------------------------- in the database


@dataclass(frozen=True)
class Split:
    """Hilbert-l applied to rows of the source: where they went and what it costs in stars."""

    table: (
        TableRef | None
    )  # work table (rid, gid, deleted, sa_suppressed) of the split rows; None if kept whole
    rows: int
    groups: int
    stars: int
    stars_whole: int  # the rows as one group
    max_l_from: int | None
    leftovers: int


def eligible_l(request: AnonymizeRequest, algorithm: str) -> int:
    """The l of an l-eligibility algorithm (TP, TP+, Hilbert): one SA, a model their output satisfies."""
    inputs, model = request.inputs, request.model
    if len(inputs.sa) != 1:
        raise BadInput(
            f"{algorithm} supports one sensitive attribute; got {len(inputs.sa)} "
            f"({', '.join(c.name for c in inputs.sa)})",
            "anonymize with one --sa, or use an algorithm for several SAs",
        )
    if model.name not in IMPLIED_MODELS or not model.ls:
        raise BadInput(
            f"{algorithm} builds l-eligible groups (frequency l-diversity, SPEC §0.2), which implies "
            f"distinct and entropy l-diversity, but not {model.describe()}",
            "use --model frequency (the default for this algorithm), distinct or entropy",
        )
    return int(model.ls[0])


def not_eligible_error(sa: str, value: str, n1: int, n: int, l: int) -> BadInput:
    """SPEC §1.1: T must be l-eligible; name the most frequent value, its count and |T|/l."""
    return BadInput(
        f"the table is not {l}-eligible: {sa} = {value!r} holds {n1} of {n} rows, more than |T|/l = "
        f"{n}/{l} = {n / l:.2f}",
        f"an l-eligible partition needs l·n1 ≤ |T| (TP Lemma 1); "
        f"the largest feasible l is ⌊{n}/{n1}⌋ = {n // n1}",
    )


def require_l_eligible(request: AnonymizeRequest, l: int) -> None:
    """Refuse a table no partition into l-eligible groups exists for (one query over the SA counts)."""
    inputs = request.inputs
    counts = request.db.rows(render("catalog/sa_counts.sql", source=inputs.table.ref, sa=inputs.sa[0].ident))
    pairs = [(str(v), int(c)) for v, c in counts]
    n = sum(c for _, c in pairs)
    value, n1 = max(pairs, key=lambda p: p[1])
    if l * n1 > n:
        raise not_eligible_error(inputs.sa[0].name, value, n1, n, l)


def split_rows(
    request: AnonymizeRequest,
    l: int,
    *,
    first_gid: int,
    scope: TableRef | None = None,
    scope_gid: int = 0,
    keep_whole_unless_fewer_stars: bool = False,
) -> Split:
    """Hilbert-l on all source rows, or on the rows of group ``scope_gid`` of the assignment ``scope``.

    Two statements rank every QI value in its domain and number the SA values (``sql/hilbert/domains.sql``,
    ``sql/tp/sa_ids.sql``), one query fetches the rows' ranks (``sql/hilbert/coords.sql``); the curve and
    the grouping run
    in Python (:func:`hilbert_l_groups`); the groups (ids from ``first_gid``) are written with one insert.
    With ``keep_whole_unless_fewer_stars`` (TP+'s guard, SPEC §1.12) nothing is written unless the split
    has fewer stars than the rows as one group.
    """
    db, inputs = request.db, request.inputs
    kinds, hids = [], []
    for col in inputs.qi:
        hid = request.hierarchy_ids.get(col.name)
        kinds.append("hierarchy" if hid is not None and not col.is_numeric else "value")
        hids.append(hid or 0)
    qi, sa = [c.ident for c in inputs.qi], inputs.sa[0].ident
    domains, sa_ids = db.work_table("hilbert_domains"), db.work_table("hilbert_sa_ids")
    db.run(
        render(
            "hilbert/domains.sql",
            {"hids": hids},
            target=domains,
            source=inputs.table.ref,
            qi=qi,
            kinds=kinds,
            texts=[c.is_text for c in inputs.qi],
        )
    )
    db.run(render("tp/sa_ids.sql", target=sa_ids, source=inputs.table.ref, sa=sa))
    frame = db.df(
        render(
            "hilbert/coords.sql",
            {"r_gid": scope_gid},
            source=inputs.table.ref,
            domains=domains,
            sa_ids=sa_ids,
            qi=qi,
            sa=sa,
            assignment=scope,
            null_safe=request.null_as_value,  # else the inputs were refused if they held NULL
        ),
        bulk=True,
    )
    d = len(inputs.qi)
    n_rows = len(frame)
    if n_rows == 0:
        return Split(None, 0, 0, 0, 0, None, 0)
    coords = frame[[f"c{i}" for i in range(1, d + 1)]].to_numpy(dtype=np.int64)
    sizes = [int(r["size"]) for r in db.records(render("hilbert/domain_sizes.sql", domains=domains))]
    rids = frame["rid"].to_numpy(dtype=np.int64)
    grouping = hilbert_l_groups(coords, frame["sid"].to_numpy(dtype=np.int64), rids, l, bits=bits_for(sizes))
    whole = stars_of(coords, np.arange(n_rows))
    if keep_whole_unless_fewer_stars and grouping.stars >= whole:
        return Split(
            None, n_rows, grouping.groups, grouping.stars, whole, grouping.max_l_from, grouping.leftovers
        )
    table = db.work_table("hilbert_groups")
    db.run(render("hilbert/groups_table.sql", target=table))
    db.insert_frame(table, pd.DataFrame({"rid": rids, "gid": grouping.group + first_gid}))
    return Split(
        table, n_rows, grouping.groups, grouping.stars, whole, grouping.max_l_from, grouping.leftovers
    )
