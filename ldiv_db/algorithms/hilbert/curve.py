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

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ...errors import BadInput, InternalError
from ...sqlgen.render import TableRef, render
from ...util.background import Background
from ..base import AnonymizeRequest

# models an l-eligible partition satisfies with the same l (SPEC §0.2: max p ≤ 1/l ⇒ ≥ l values and
# Shannon entropy ≥ min-entropy ≥ ln l)
IMPLIED_MODELS = ("frequency", "distinct", "entropy")

IntArray = npt.NDArray[np.int64]
# SA ids below this are sorted as 16-bit keys and counted by a bincount (_pick_groups)
SMALL_IDS = 1 << 15


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
    arr = _integers(coords)
    if arr.ndim != 2:
        raise ValueError("coords must be a 2-D array (rows × dimensions)")
    n, d = arr.shape
    if n and (int(arr.min()) < 0 or int(arr.max()) >= (1 << bits)):
        raise ValueError(f"coordinates must lie in [0, 2**{bits})")
    word = _word(bits)  # the transform works within the coordinates' bits
    x: list[npt.NDArray[Any]] = [arr[:, i].astype(word) for i in range(d)]
    top = word(1 << (bits - 1))
    one = word(1)
    q = top
    level = bits - 1
    while q > 1:  # without branches: a bit of 0 or 1 times the mask, in place where it can be
        p = word(q - one)
        for i in range(d):
            high = (x[i] >> word(level)) & one  # 1 where axis i has bit q
            x[0] ^= high * p  # invert the low bits of axis 0 there
            # else exchange them with axis i (high - 1 is all ones where high is 0)
            t: npt.NDArray[Any] = (x[0] ^ x[i]) & ((high - one) & p)
            x[0] ^= t
            x[i] ^= t
        q = word(q >> one)
        level -= 1
    for i in range(1, d):  # Gray encode
        x[i] ^= x[i - 1]
    t = np.zeros(n, dtype=word)
    q = top
    while q > 1:
        np.bitwise_xor(t, word(q - one), out=t, where=(x[d - 1] & q) != 0)
        q = word(q >> one)
    for i in range(d):
        x[i] ^= t
    if d * bits <= 63:
        # bit b of axis i goes to bit b·d + (d − 1 − i) of the key: each axis's bits spread d apart
        # (through a table of every coordinate while it is small), then shifted into place
        key = np.zeros(n, dtype=np.uint64)
        for i in range(d):
            key |= _spread(x[i], bits, d) << np.uint64(d - 1 - i)
        return key.astype(np.int64)  # below 2**63
    big = np.zeros(n, dtype=object)
    for plane in range(bits - 1, -1, -1):
        for i in range(d):
            big = (big << 1) | ((x[i] >> np.uint64(plane)) & np.uint64(1)).astype(np.int64).astype(object)
    return big


def _integers(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """An integer array as it is (any width, signed or not), anything else as int64."""
    arr = np.asarray(values)
    return arr if arr.dtype.kind in "iu" else arr.astype(np.int64)


def _word(bits: int) -> Any:
    """The narrowest unsigned numpy type that holds ``bits`` bits."""
    return next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if bits <= np.iinfo(t).bits)


def _spread(axis: npt.NDArray[Any], bits: int, d: int) -> npt.NDArray[np.uint64]:
    """The bits of each value moved apart: bit b to bit b·d (the key's layout, :func:`hilbert_keys`)."""
    table = bits <= 16  # every coordinate spread once, then looked up
    source = np.arange(1 << bits, dtype=np.uint64) if table else axis.astype(np.uint64)
    out = np.zeros(len(source), dtype=np.uint64)
    for b in range(bits):
        out |= ((source >> np.uint64(b)) & np.uint64(1)) << np.uint64(b * d)
    return out[axis] if table else out


def curve_order(keys: npt.NDArray[Any], rids: npt.ArrayLike) -> IntArray:
    """Positions sorted by (Hilbert key, row id); ``rids`` may be any distinct tie key (TP+: the seeded key)."""
    r = np.asarray(rids, dtype=np.int64)
    if keys.dtype != object:
        n = len(r)
        rank_bits = max(1, (n - 1).bit_length())
        if n and int(keys.max()).bit_length() + rank_bits <= 63:
            # one sort of the key with the row's rank among the ties below it: a third of lexsort's time
            by_r = np.argsort(r)
            sorted_r = r[by_r]
            if not (sorted_r[1:] == sorted_r[:-1]).any():  # distinct ties: the ranks order as lexsort's
                rank = np.empty(n, dtype=np.int64)
                rank[by_r] = np.arange(n, dtype=np.int64)
                # the packed values are distinct, so sorting the values (numpy's vectorized sort, faster
                # than an argsort) and reading each one's rank back gives the argsort's order
                packed: IntArray = np.sort((keys.astype(np.int64) << rank_bits) | rank)
                ranks: IntArray = packed & ((1 << rank_bits) - 1)
                positions: IntArray = by_r[ranks].astype(np.int64, copy=False)
                return positions
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
    stars_whole: int = 0  # the stars of all rows as one group (TP+'s guard)
    # per group (row g: group g) and QI, whether the group's rows hold more than one coordinate: the QIs
    # Definition 1 stars; ``mixed_whole`` the same of all rows as one group
    mixed: npt.NDArray[np.bool_] | None = None
    mixed_whole: npt.NDArray[np.bool_] | None = None


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
    coords = _integers(coords)  # as given: split_rows narrows them to the curve's bits
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
    flat, sizes, leftovers, max_l_from = _pick_groups(pos_sid, l)
    n_groups = len(sizes)
    pos_group = np.full(n_rows, -1, dtype=np.int64)
    pos_group[flat] = np.repeat(np.arange(n_groups, dtype=np.int64), sizes)
    if leftovers:
        _place_leftovers(pos_group, pos_sid, coords[order], leftovers, n_groups)
        flat = np.argsort(pos_group, kind="stable")  # the positions group after group again
        sizes = np.bincount(pos_group, minlength=n_groups)
    group[order] = pos_group
    mixed = np.zeros((n_groups, d), dtype=bool)
    mixed_whole = np.zeros(d, dtype=bool)
    if d:  # Definition 1 per group: its size times its QIs whose smallest and largest coordinate differ
        # the rows group after group, in one gather, as the narrowest type of the coordinates (< 2**bits)
        block = coords.astype(_word(bits), copy=False)[order[flat]]
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        lo, hi = np.minimum.reduceat(block, starts, axis=0), np.maximum.reduceat(block, starts, axis=0)
        mixed = lo != hi
        # all rows as one group: a QI is constant on them iff the groups' least and greatest agree
        mixed_whole = lo.min(axis=0) != hi.max(axis=0)
    stars = int((sizes * mixed.sum(axis=1)).sum())
    whole = n_rows * int(mixed_whole.sum())
    return Grouping(group, n_groups, stars, max_l_from, len(leftovers), whole, mixed, mixed_whole)


def _pick_groups(pos_sid: IntArray, l: int) -> tuple[IntArray, IntArray, list[int], int | None]:
    """The groups of curve positions (see :func:`hilbert_l_groups`) as one array, group after group, with
    each group's size; the leftover positions; and the group from which Max-l picked (None: never).

    A bucket is a chain of positions (``nxt``: the next position of the same SA id); each active bucket's head
    is kept in a sorted list (at most one per SA value: a sorted insert into a list that short costs less than
    a heap's push and pop). While no bucket is critical the rule takes the l buckets with the first heads: the
    list's first l, then their successors inserted. The largest bucket only shrinks and each group takes l
    rows, so after one look at the sizes the next ``steps`` groups cannot meet a critical bucket. A group with
    a critical bucket, and every Max-l group, is chosen by :func:`_choose` from all of them."""
    n = len(pos_sid)
    small = n > 0 and int(pos_sid.min()) >= 0 and int(pos_sid.max()) < SMALL_IDS
    # each bucket's positions, in curve order (SA ids as 16-bit keys: numpy's radix sort, ~5x faster)
    by_sid = np.argsort(pos_sid.astype(np.int16) if small else pos_sid, kind="stable")
    if small:  # the buckets in SA id order, as np.unique's, from one count per id
        counts = np.bincount(pos_sid)
        counts = counts[counts > 0]
        starts = np.cumsum(counts) - counts
    else:
        _, starts, counts = np.unique(pos_sid[by_sid], return_index=True, return_counts=True)
    ends = starts + counts
    nxt = np.empty(n, dtype=np.int64)
    nxt[by_sid[:-1]] = by_sid[1:]
    nxt[by_sid[ends - 1]] = -1
    left = np.empty(n, dtype=np.int64)  # the bucket's size while this position is its head
    left[by_sid] = np.repeat(ends, counts) - np.arange(n)
    # the loop follows successors as a list; sizes and SA ids are read only for the few heads of a look
    nxt_of = nxt.tolist()
    heads = sorted(by_sid[starts].tolist())
    flat: list[int] = []
    sizes: list[int] = []
    remaining = n
    max_l_from: int | None = None
    insort = bisect.insort
    while len(heads) >= l:
        largest = int(left[heads].max())
        if max_l_from is None and largest * l <= remaining - l:  # no bucket is critical
            steps = (remaining - l - largest * l) // l + 1
            while steps and len(heads) >= l:
                taken = heads[:l]
                del heads[:l]
                flat.extend(taken)
                for p in taken:
                    if nxt_of[p] >= 0:
                        insort(heads, nxt_of[p])
                steps -= 1
                remaining -= l
                sizes.append(l)
            continue
        head = dict(zip(pos_sid[heads].tolist(), heads, strict=True))
        size = dict(zip(head, left[heads].tolist(), strict=True))
        crit = [] if max_l_from is not None else [s for s in size if size[s] * l > remaining - l]
        if len(crit) > l:
            max_l_from = len(sizes)
        chosen = _choose(head, size, crit, l, max_l=max_l_from is not None)
        taken = [head[s] for s in chosen]
        flat.extend(taken)
        heads = sorted(
            [nxt_of[p] for p in taken if nxt_of[p] >= 0] + [p for s, p in head.items() if s not in chosen]
        )
        remaining -= len(taken)
        sizes.append(len(taken))
    if not sizes:
        raise InternalError("Hilbert: the rows to group are not l-eligible")
    leftovers = []
    for p in sorted(heads, key=lambda p: int(pos_sid[p])):
        while p >= 0:
            leftovers.append(p)
            p = nxt_of[p]
    return np.array(flat, dtype=np.int64), np.array(sizes, dtype=np.int64), leftovers, max_l_from


def _choose(head: dict[int, int], size: dict[int, int], crit: list[int], l: int, *, max_l: bool) -> list[int]:
    """The buckets one group takes (:func:`hilbert_l_groups`), by SA id (``head``: each active bucket's
    first position, ``size``: its rows): Max-l, the l largest (the first head on ties); else the
    critical ones, the one with the first head, and more by increasing head up to l."""
    if max_l:
        return sorted(size, key=lambda s: (-size[s], head[s]))[:l]
    chosen = sorted(crit, key=head.__getitem__)
    anchor = min(size, key=head.__getitem__)
    if anchor not in chosen:
        chosen.append(anchor)
    if len(chosen) < l:
        taken = set(chosen)
        chosen.extend(sorted((s for s in size if s not in taken), key=head.__getitem__)[: l - len(chosen)])
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
class Residue:
    """TP's residue R, as its row map and cells give it (``sql/tp/rows.sql``, ``cells.sql``) with the rows
    moved in phases two and three per cell, (gid, sid, count): the rows ``sql/tp/assign.sql`` does not keep."""

    rows: TableRef
    cells: TableRef
    moves: Sequence[tuple[int, int, int]]

    def params(self) -> dict[str, list[int]]:
        """The moves as the parameters ``_macros/tp_placed.sql`` reads: $gids, $sids, $moves."""
        return {
            "gids": [m[0] for m in self.moves],
            "sids": [m[1] for m in self.moves],
            "moves": [m[2] for m in self.moves],
        }


@dataclass(frozen=True)
class Split:
    """Hilbert-l applied to rows of the source: where they went and what it costs in stars."""

    table: TableRef | None  # (rid, gid, deleted, sa_suppressed) the groups went to; None: kept whole
    rows: int
    groups: int
    stars: int
    stars_whole: int  # the rows as one group
    max_l_from: int | None
    leftovers: int
    # the groups written (their ids) and, per group and QI, whether its rows disagree there (Definition 1's
    # star): what :func:`write_group_stars` records; None where nothing was written
    mixed: tuple[IntArray, npt.NDArray[np.bool_]] | None = None


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


def _domains(request: AnonymizeRequest) -> TableRef:
    """Every QI value's rank in its domain (sql/hilbert/domains.sql), a work table."""
    db, inputs = request.db, request.inputs
    kinds, hids = [], []
    for col in inputs.qi:
        hid = request.hierarchy_ids.get(col.name)
        kinds.append("hierarchy" if hid is not None and not col.is_numeric else "value")
        hids.append(hid or 0)
    domains = db.work_table("hilbert_domains")
    db.run(
        render(
            "hilbert/domains.sql",
            {"hids": hids},
            target=domains,
            source=inputs.table.ref,
            qi=[c.ident for c in inputs.qi],
            kinds=kinds,
            texts=[c.is_text for c in inputs.qi],
        )
    )
    return domains


def split_rows(
    request: AnonymizeRequest,
    l: int,
    *,
    first_gid: int,
    residue: Residue | None = None,
    keep_whole_unless_fewer_stars: bool = False,
    beside: Callable[[], TableRef] | None = None,
    publish: Callable[[IntArray], IntArray] | None = None,
) -> Split:
    """Hilbert-l on all source rows, or on TP's residue (``residue``: TP+).

    One statement ranks every QI value in its domain (``sql/hilbert/domains.sql``); for all rows one more
    numbers the SA values (``sql/tp/sa_ids.sql``); one query fetches the rows' ranks as numpy columns
    (``sql/hilbert/coords.sql``, in no order: the curve orders them by key and tie, for the residue TP's tie
    order, else the row id); the curve and the grouping run in Python (:func:`hilbert_l_groups`); the groups
    (ids from ``first_gid``) are written with one insert, into a table of their own.
    With ``keep_whole_unless_fewer_stars`` (TP+'s guard, SPEC §1.12) the rows stay one group (``first_gid``)
    unless the split has fewer stars. ``beside``: a statement the connection runs while the grouping runs in
    a thread of its own, returning the table the rows are inserted into instead, as one group if they are
    kept whole (TP+: its staying rows' assignment); without it nothing is written for rows kept whole.
    ``publish``: the ids the groups written (``first_gid`` on, in order) are published under, given them
    once the grouping is done (TP+ numbers its groups by the group-id rule itself).
    """
    db = request.db
    fetched = _points(request, residue)
    if fetched is None:
        if beside is not None:  # its statement is the caller's, whatever the rows: it runs here too
            beside()
        return Split(None, 0, 0, 0, 0, None, 0)
    rids, coords, sids, ties, bits = fetched

    def grouping_of() -> Grouping:
        return hilbert_l_groups(coords, sids, ties, l, bits=bits)

    into = None
    if beside is None:
        grouping = grouping_of()
    else:  # the grouping is Python on one core, the statement the engine's: the two run side by side
        job = Background(grouping_of, name="hilbert-l")
        try:
            into = beside()
        except BaseException:
            job.cancel()
            raise
        grouping = job.result()
    n_rows, whole = len(rids), grouping.stars_whole
    split = not (keep_whole_unless_fewer_stars and grouping.stars >= whole)
    if into is None and split:
        into = db.work_table("hilbert_groups")
        db.run(render("hilbert/groups_table.sql", target=into))
    mixed = None
    if into is not None:
        local = grouping.group if split else np.zeros(n_rows, dtype=np.int64)  # 0-based groups
        ids = np.arange(grouping.groups if split else 1, dtype=np.int64) + first_gid
        ids = ids if publish is None else publish(ids)
        none = np.zeros(n_rows, dtype=bool)
        db.insert_columns(into, {"rid": rids, "gid": ids[local], "deleted": none, "sa_suppressed": none})
        if grouping.mixed is not None and grouping.mixed_whole is not None:
            mixed = (ids, grouping.mixed if split else grouping.mixed_whole[None, :])
    return Split(
        into if split else None,
        n_rows,
        grouping.groups,
        grouping.stars,
        whole,
        grouping.max_l_from,
        grouping.leftovers,
        mixed,
    )


def write_group_stars(request: AnonymizeRequest, split: Split | None) -> TableRef:
    """The groups the split wrote whose rows disagree on some QI, a flag per QI (``s1``..``sd``:
    Definition 1's star), as a work table for the release's write (``Partitioning.group_stars``): a group
    not in it agrees on every QI, as do all groups the split did not write (TP+'s QI-groups; ``split``
    None: no split ran)."""
    db, d = request.db, len(request.inputs.qi)
    target = db.work_table("group_stars")
    db.run(render("hilbert/group_stars_table.sql", target=target, qi_count=d))
    if split is not None and split.mixed is not None:
        gids, mask = split.mixed
        starred = mask.any(axis=1)
        if starred.any():
            mask = mask[starred]
            db.insert_columns(
                target, {"gid": gids[starred], **{f"s{i + 1}": mask[:, i].copy() for i in range(d)}}
            )
    return target


def _points(
    request: AnonymizeRequest, residue: Residue | None
) -> tuple[IntArray, npt.NDArray[Any], IntArray, IntArray, int] | None:
    """The rows' ids, coordinates (the curve's narrowest unsigned type), SA ids and ties, and the curve's
    bits (:func:`split_rows`); None if there is no row."""
    db, inputs = request.db, request.inputs
    qi, sa = [c.ident for c in inputs.qi], inputs.sa[0].ident
    domains = _domains(request)
    ctx: dict[str, Any] = {"rows": None}
    params: dict[str, list[int]] = {"gids": [], "sids": [], "moves": []}
    if residue is not None:
        ctx = {"rows": residue.rows, "cells": residue.cells}
        params = residue.params()
    else:
        sa_ids = ctx["sa_ids"] = db.work_table("hilbert_sa_ids")
        db.run(
            render("tp/sa_ids.sql", {"seed": 0}, target=sa_ids, source=inputs.table.ref, sa=sa, keyed=False)
        )
    columns = db.arrays(  # not a frame: it would be built only to be taken apart into these arrays
        render(
            "hilbert/coords.sql",
            params,
            source=inputs.table.ref,
            domains=domains,
            qi=qi,
            sa=sa,
            null_safe=request.null_as_value,  # else the inputs were refused if they held NULL
            **ctx,
        ),
        bulk=True,
    )
    d = len(inputs.qi)
    rids = columns["rid"].astype(np.int64, copy=False)
    n_rows = len(rids)
    if n_rows == 0:
        return None
    sizes = [int(r["size"]) for r in db.records(render("hilbert/domain_sizes.sql", domains=domains))]
    bits = bits_for(sizes)
    # the ranks (below their domain's size) as the narrowest unsigned type of the curve's bits
    coords = np.empty((n_rows, d), dtype=_word(bits))
    for i in range(d):
        column = columns[f"c{i + 1}"]
        if int(column.min()) < 0 or int(column.max()) >= 1 << bits:
            raise InternalError(f"Hilbert coordinate {i + 1} outside [0, 2**{bits})")
        coords[:, i] = column
    ties = columns["tie"].astype(np.int64, copy=False) if residue is not None else rids
    sids = columns["sid"].astype(np.int64, copy=False)
    return rids, coords, sids, ties, bits
