"""Mondrian multidimensional partitioning for l-diversity — the baseline of BSGI's experiments (Ye et al.
§6; LeFevre, DeWitt, Ramakrishnan, ICDE 2006, with the l-diversity test of Machanavajjhala et al. 2006).

Top-down, strict: a partition is cut at the median of its widest QI — widths normalized as NCP (SPEC
§0.7): numeric (max − min)/(max_T − min_T), hierarchy #leaves(LCA)/|A| (0 for one leaf), flat (rank range)/
(|values| − 1); a categorical QI is ordered by its hierarchy's left-to-right leaf order (preorder) or,
without one, by value — and the cut is allowed only when both halves pass the split test
(``--mondrian-form distinct``: at least l distinct values of every SA; ``frequency``: l·h ≤ |X|, SPEC §0.2).
When the widest QI cannot be cut the next widest is tried; a partition no QI can cut is a final class,
published by LCA / range (recoding 'lca', SPEC §0.5).

Median [D]: m = the ⌈|X|/2⌉-th smallest value of the partition (lower median, rows counted); rows with
value ≤ m go left, or value < m when m is the partition's maximum. Ties between equally wide QIs: QI
order [D]. Strict partitioning never separates rows with equal QI vectors.

Where the work happens: SQL computes the ordinals and compresses the table to its distinct QI vectors
with their SA value counts (``sql/mondrian/``); the rounds run over those arrays in numpy — every round
cuts all open partitions at once — and SQL writes the assignment. Why not one SQL statement per round:
the tree is 15–30 levels deep on Adult, and a statement's planning alone, paid every round, would outweigh
the round's work in numpy.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...core.options import Option
from ...errors import BadInput, HierarchyError
from ...privacy import Distinct, Frequency
from ...sqlgen.render import Ident, render
from ...util.seeded_key import published_ids
from ..base import Algorithm, AnonymizeRequest, Partitioning, lca_hierarchy_ids
from ..shared.lca import INTEGER_TYPES, Integers, lca_labels
from ..shared.trees import Tree, load_trees, qi_kinds
from .vectors import Vectors

FORMS = ("distinct", "frequency")
DENSE_CELLS = 8_000_000  # halves × SA values counted in one histogram (64 MB of float64)
RADIX_KEYS = 2**16  # numpy sorts integers of 16 bits stably by radix
MASK_WORDS = 4  # an SA of up to 256 values: the distinct test on bit sets of its values


class Mondrian(Algorithm):
    name = "mondrian"
    generalizes_by_hierarchy = True
    # rows are read grouped by their QI vector (numbered by the vectors' values), the rounds run over the
    # vectors in that order, and a row id only keys the assignment (rid -> ordinals -> gid)
    order_free = True
    leaves_cycles = False  # its vectors, rounds and labels are arrays and frames local to run
    default_model = "distinct"
    summary = "Mondrian multidimensional median partitioning for l-diversity (baseline; local recoding)"
    options = (
        Option("mondrian_form", "choice", "mondrian: split test (default: the model's)", choices=FORMS),
    )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        db, inputs, model = request.db, request.inputs, request.model
        if not isinstance(model, (Distinct, Frequency)) or not model.ls:
            raise BadInput(
                f"Mondrian cuts while both halves stay l-diverse; it cannot target {model.describe()}",
                "use --model distinct (default) or frequency; for t-closeness, delta-disclosure or "
                "beta-likeness use --algorithm optimal or topdown",
            )
        form = self._form(request)
        kinds = qi_kinds(request)
        hids = lca_hierarchy_ids(inputs.qi, request.hierarchy_ids)
        ords = [Ident(f"o{i}") for i in range(1, len(inputs.qi) + 1)]
        sas = [Ident(f"s{i}") for i in range(1, len(inputs.sa) + 1)]

        rows = db.work_table("mondrian_rows")
        db.run(
            render(
                "mondrian/rows.sql",
                {"hids": hids},
                target=rows,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
                sa=[c.ident for c in inputs.sa],
                kinds=kinds,
                texts=[c.is_text for c in inputs.qi],
            )
        )
        frame = db.columns(render("mondrian/vectors.sql", rows=rows, ords=ords, sas=sas), bulk=True)
        self._check_missing(request, frame, kinds)
        trees = load_trees(db, hids, kinds)
        data = Vectors(frame, len(ords), len(sas), kinds)
        tree_of = [trees[h] if k == "hierarchy" else None for h, k in zip(hids, kinds, strict=True)]
        spans = _spans(data, kinds, tree_of)
        t_sql = time.perf_counter()
        part = _Partitioner(
            data,
            kinds,
            spans,
            tree_of,
            list(model.ls),
            form,
            progress=lambda done: request.progress.update(done, inputs.rows, "rows in final classes"),
        )
        local = part.run()  # 0..G-1 per vector
        n_groups = int(local.max()) + 1 if len(local) else 0
        # the published ids (THE rule of pipeline/opaque.py, on the run's seed): no renumbering statements
        gid = published_ids(np.arange(1, n_groups + 1), request.order_seed)[local]
        t_part = time.perf_counter()

        classes = db.work_table("mondrian_classes")
        db.run(render("mondrian/classes.sql", target=classes, ords=ords))
        columns = {f"o{a + 1}": data.ords[:, a] for a in range(len(ords))}
        db.insert_columns(classes, {**columns, "gid": gid})
        assignment = db.work_table("mondrian_assignment")
        db.run(render("mondrian/assignment.sql", target=assignment, rows=rows, classes=classes, ords=ords))
        for dead in (rows, classes):  # before the write: DuckDB's bound need not write them out
            db.drop_work_table(dead)
        labels = lca_labels(db, _labellers(request, kinds, tree_of, data), data.leaf_codes, gid)
        return Partitioning(
            assignment=assignment,
            recoding="lca",
            group_labels=labels,  # None: release/labels_lca.sql labels the groups
            ids_published=True,
            groups=n_groups,  # its final classes numbered 0..G-1, each with rows: the labels need no count
            details={
                "l": max(model.ls),
                "form": form,
                "classes": n_groups,
                "rounds": part.rounds,
                "qi_vectors": len(data.vid),
                "seconds": {
                    "sql_prepare": round(t_sql - t0, 4),
                    "partition": round(t_part - t_sql, 4),
                    "write": round(time.perf_counter() - t_part, 4),
                },
            },
        )

    # ------------------------------------------------------------------ helpers
    def _form(self, request: AnonymizeRequest) -> str:
        model_form = "frequency" if isinstance(request.model, Frequency) else "distinct"
        given = request.options.get("mondrian_form")
        if given is None:
            return model_form
        form = str(given)
        if form == "distinct" and model_form == "frequency":
            raise BadInput(
                "--mondrian-form distinct does not guarantee the frequency model (l·h ≤ |X|)",
                "use --mondrian-form frequency, or --model distinct",
            )
        return form

    @staticmethod
    def _check_missing(request: AnonymizeRequest, frame: Mapping[str, Any], kinds: Sequence[str]) -> None:
        if not int(np.asarray(frame["missing"]).sum()):
            return
        for i, (col, kind) in enumerate(zip(request.inputs.qi, kinds, strict=True), start=1):
            if np.ma.getmaskarray(frame[f"o{i}"]).any():
                if kind == "hierarchy":
                    raise HierarchyError(
                        f"some values of {col.name!r} are not leaves of its hierarchy",
                        f"re-import it with a row for each: ldiv hierarchy import DB --table "
                        f"{request.inputs.table.name} --column '{col.name}' FILE",
                    )
                raise BadInput(
                    f"QI {col.name!r} has NULL values; Mondrian needs numbers there", "filter them out first"
                )


def _labellers(
    request: AnonymizeRequest, kinds: Sequence[str], trees: Sequence[Tree | None], data: Vectors
) -> list[Tree | Integers | None]:
    """How :func:`~ldiv_db.algorithms.shared.lca.lca_labels` labels each QI from the vectors: its
    taxonomy (ordinals are leaf node ids), an integer column's values (codes are their ranks), or None."""
    out: list[Tree | Integers | None] = []
    for a, (col, kind, tree) in enumerate(zip(request.inputs.qi, kinds, trees, strict=True)):
        if kind == "hierarchy":
            out.append(tree)
        elif kind == "numeric" and col.data_type.upper() in INTEGER_TYPES and _exact(data.values[a]):
            out.append(Integers(data.values[a].astype(np.int64)))
        else:
            out.append(None)
    return out


def _exact(values: np.ndarray) -> bool:
    """Whether an integer column's values survived as numbers exactly (a float holds integers up to 2^53;
    above, the SQL template labels the groups from the table's own values)."""
    if values.dtype.kind in "iu":
        return True
    return bool(np.isfinite(values).all() and (np.abs(values) < 2.0**53).all())


def _median(
    code: np.ndarray, w: np.ndarray, first: np.ndarray, total: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per partition the positions among one QI's distinct values (``code``: each vector's, the vectors
    grouped by partition and ascending by code within it; ``first``: each partition's first position,
    ``total``: its rows) of its smallest and largest value and of its lower median m (the ⌈|X|/2⌉-th
    smallest value, rows counted). Every vector has rows, so the running count of rows rises at every
    vector and the median is the first vector whose running count reaches half of its partition's."""
    cum = np.cumsum(w)
    base = cum[first] - w[first]  # the rows before the partition
    ends = np.append(first[1:], len(code)) - 1
    at = np.searchsorted(cum, base + (total + 1) // 2)
    return code[first], code[ends], code[at]


def _half_counts(
    key: np.ndarray, n: np.ndarray, halves: int, n_val: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per half (``key`` = SA value code · halves + half, ``n`` rows each): its rows, its distinct SA values
    and its most frequent value's count. A dense histogram (value-major: the reductions run down its
    columns) where it fits in :data:`DENSE_CELLS`."""
    if halves * n_val <= DENSE_CELLS:
        hist = np.bincount(key, weights=n, minlength=halves * n_val).reshape(n_val, halves)
        size = hist.sum(axis=0).astype(np.int64)
        return size, np.count_nonzero(hist, axis=0), hist.max(axis=0).astype(np.int64)
    keys, inverse = np.unique(key, return_inverse=True)
    counts = np.bincount(inverse, weights=n).astype(np.int64)
    group = keys % halves
    size = np.bincount(group, weights=counts, minlength=halves).astype(np.int64)
    top = np.zeros(halves, dtype=np.int64)
    np.maximum.at(top, group, counts)
    return size, np.bincount(group, minlength=halves), top


def _half_distinct(key: np.ndarray, halves: int, n_val: int) -> np.ndarray:
    """Per half its distinct SA values (``key`` as for :func:`_half_counts`): the rows are not needed."""
    if halves * n_val <= DENSE_CELLS:
        present = np.zeros(halves * n_val, dtype=bool)  # presence alone: a byte per cell, not a count
        present[key] = True
        return np.asarray(np.count_nonzero(present.reshape(n_val, halves), axis=0), dtype=np.int64)
    return np.bincount(np.unique(key) % halves, minlength=halves)


def _presence(vec: np.ndarray, val: np.ndarray, nv: int) -> list[np.ndarray] | None:
    """Per vector the set of an SA's value codes it holds, as :data:`MASK_WORDS` 64-bit words at most
    (bit v of word k: value code 64·k + v); None for an SA with more values."""
    n_words = (int(val.max()) + 64) // 64 if len(val) else 1
    if n_words > MASK_WORDS:
        return None
    words = []
    for k in range(n_words):
        sel = (val >> 6) == k
        word = np.zeros(nv, dtype=np.uint64)
        np.bitwise_or.at(word, vec[sel], np.left_shift(np.uint64(1), (val[sel] & 63).astype(np.uint64)))
        words.append(word)
    return words


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(x: np.ndarray) -> np.ndarray:
    """The set bits of each 64-bit word (numpy 1.x has no ``bitwise_count``)."""
    if hasattr(np, "bitwise_count"):
        return np.asarray(np.bitwise_count(x), dtype=np.int64)
    return np.asarray(_BYTE_BITS[np.ascontiguousarray(x).view(np.uint8)].reshape(len(x), 8).sum(axis=1))


def _cut(orders: list[np.ndarray], kept: np.ndarray | None, r: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Each order (in place) with the vectors at positions ``kept`` alone (None: all) and each partition's
    left half before its right, each half in the order it had (``r``: per kept position its partition
    among the cut ones, ``right``: per vector whether it goes right). Returns the vectors per new
    partition."""
    if not len(r):
        orders[:] = [o[:0] for o in orders]
        return np.zeros(0, dtype=np.int64)
    seg = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])  # where each cut partition starts
    o = orders[0] if kept is None else orders[0].take(kept)
    n_left = np.add.reduceat((~right.take(o)).astype(np.int64), seg)
    if 2 * len(seg) <= RADIX_KEYS:  # each half's number as a 16-bit key: a stable radix sort
        half_of = (2 * r).astype(np.uint16)
        for i, order in enumerate(orders):
            o = order if kept is None else order.take(kept)
            orders[i] = o.take(np.argsort(half_of + right.take(o), kind="stable"))
    else:
        _place(orders, kept, r, seg, n_left, right)
    sizes = np.diff(np.r_[seg, len(r)])
    return np.stack([n_left, sizes - n_left], axis=1).reshape(-1)


def _place(
    orders: list[np.ndarray],
    kept: np.ndarray | None,
    r: np.ndarray,
    seg: np.ndarray,
    n_left: np.ndarray,
    right: np.ndarray,
) -> None:
    """:func:`_cut`'s reordering by each vector's new place, computed from running counts (more halves
    than 16-bit keys number)."""
    before = np.cumsum(n_left) - n_left  # lefts in the partitions before: the same in every order
    # a left vector's place: its partition's start + the lefts before it there (lefts - before - 1); a
    # right one's: after the partition's lefts, + the rights before it there (at - lefts + before + n_left)
    rights_at = (before + n_left)[r] + np.arange(len(r))
    lefts_at = (seg - before - 1)[r] - rights_at
    for i, order in enumerate(orders):
        o = order if kept is None else order.take(kept)
        goes_left = (~right.take(o)).astype(np.int64)  # a cumulative sum of booleans is slow: of integers
        lefts = np.cumsum(goes_left)
        dest = lefts * 2  # in place from here: no fresh array per step
        dest += lefts_at
        dest *= goes_left
        dest += rights_at
        dest -= lefts
        out = np.empty_like(o)
        out[dest] = o
        orders[i] = out


def _spans(data: Vectors, kinds: Sequence[str], trees: Sequence[Tree | None]) -> list[float]:
    """The normalizer of each QI's width: max_T − min_T (numeric), |values| − 1 (flat), |A| (hierarchy)."""
    out: list[float] = []
    for i, (kind, tree) in enumerate(zip(kinds, trees, strict=True)):
        col = data.ords[:, i]
        if kind == "hierarchy":
            assert tree is not None
            out.append(float(tree.domain))
        elif kind == "numeric":
            out.append(float(col.max() - col.min()) if len(col) else 0.0)
        else:
            out.append(float(len(np.unique(col)) - 1) if len(col) else 0.0)
    return out


class _Partitioner:
    """The rounds of strict Mondrian over the QI vectors; every round cuts all open partitions.

    Partition p of a round is 2·rank + half of the partition it was cut from (rank: among the partitions
    cut, in partition order; half 0 left, 1 right), so the open partitions are numbered 0.. with no gap
    (both halves of a cut have rows). Per QI the open vectors are kept grouped by partition and ascending
    by the QI's code within each partition (``orders``): a cut keeps each half's vectors in their order,
    so every statistic of a round is a pass down those arrays, with no histogram over the values."""

    def __init__(
        self,
        data: Vectors,
        kinds: Sequence[str],
        spans: Sequence[float],
        trees: Sequence[Tree | None],
        ls: Sequence[int],
        form: str,
        progress: Any = None,
    ) -> None:
        self.data = data
        self.kinds = list(kinds)
        self.spans = list(spans)
        self.trees = list(trees)
        self.ls = [int(x) for x in ls]
        self.form = form
        self.progress = progress
        self.rounds = 0
        # the distinct test on a few SA values reads each vector's set of values as bit words
        self.masks = [
            _presence(data.sa_vec[j], data.sa_val[j], len(data.vid)) if form == "distinct" else None
            for j in range(len(self.ls))
        ]

    def run(self) -> np.ndarray:
        data = self.data
        nv = len(data.vid)
        gid = np.full(nv, -1, dtype=np.int64)
        # a stable sort of 16-bit keys is a radix sort: the same order, sooner
        orders = [
            np.argsort(c.astype(np.uint16) if len(c) and c.max() < 2**16 else c, kind="stable")
            for c in data.codes
        ]
        sizes = np.array([nv] if nv else [], dtype=np.int64)  # vectors per open partition
        next_gid = 0
        done_rows = 0
        while len(sizes):
            self.rounds += 1
            n_parts = len(sizes)
            first = np.cumsum(sizes) - sizes
            pidx = np.repeat(np.arange(n_parts), sizes)  # the partition at each position of an order
            total = np.add.reduceat(data.rows[orders[0]], first)
            best_attr, limit = self._choose(orders, first, pidx, total)
            final = best_attr < 0
            n_final = int(final.sum())
            kept = None
            if n_final:  # number the closed partitions in partition order
                new_id = np.full(n_parts, -1, dtype=np.int64)
                new_id[final] = next_gid + np.arange(n_final)
                closed = np.flatnonzero(final[pidx])
                gid[orders[0].take(closed)] = new_id[pidx.take(closed)]
                kept = np.flatnonzero(~final[pidx])
            next_gid += n_final
            done_rows += int(total[final].sum())
            # cut the others: a vector goes right when its code on the partition's QI is above the limit
            pk = pidx if kept is None else pidx.take(kept)
            o0 = orders[0] if kept is None else orders[0].take(kept)
            right = np.zeros(nv, dtype=bool)
            right[o0] = data.code_matrix.reshape(-1).take(best_attr[pk] * nv + o0) > limit[pk]
            sizes = _cut(orders, kept, (np.cumsum(~final) - 1)[pk], right)
            if self.progress is not None:
                self.progress(done_rows)
        return gid

    def _choose(
        self, orders: Sequence[np.ndarray], first: np.ndarray, pidx: np.ndarray, total: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per open partition the QI to cut (-1: none) and the largest code that goes left on it: the
        widest QI (ties: QI order) whose cut both halves pass. A QI's width needs its smallest and largest
        value alone, so every partition tries its QIs widest first and only the partitions whose cut
        failed try the next: most partitions count their rows and SA values on one QI."""
        data = self.data
        d, n_parts = len(orders), len(first)
        ends = np.append(first[1:], len(pidx)) - 1
        widths = np.empty((n_parts, d))
        for a, order in enumerate(orders):
            lo, hi = data.codes[a][order[first]], data.codes[a][order[ends]]
            width = self._width(a, data.values[a][lo], data.values[a][hi])
            widths[:, a] = np.where((lo < hi) & (width > 0), width, -np.inf)
        ranked = np.argsort(-widths, axis=1, kind="stable")  # widest first, ties in QI order
        best_attr = np.full(n_parts, -1, dtype=np.int64)
        limits = np.zeros(n_parts, dtype=np.int64)
        trying = np.ones(n_parts, dtype=bool)
        for t in range(d):
            qi = ranked[:, t]
            trying &= np.isfinite(widths[np.arange(n_parts), qi])  # no cut left: a final class
            for a in range(d):
                parts = np.flatnonzero(trying & (qi == a))
                if len(parts):
                    ok, limit = self._try(a, orders[a], first, ends, pidx, total, parts)
                    best_attr[parts[ok]], limits[parts[ok]] = a, limit[ok]
                    trying[parts[ok]] = False
            if not trying.any():
                break
        return best_attr, limits

    def _try(
        self,
        a: int,
        order: np.ndarray,
        first: np.ndarray,
        ends: np.ndarray,
        pidx: np.ndarray,
        total: np.ndarray,
        parts: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Cut the partitions ``parts`` on QI a at their lower median: per partition whether both halves
        pass, and the largest code that goes left."""
        sizes = ends[parts] - first[parts] + 1
        if len(parts) < len(first):  # their vectors alone, in their order
            chosen = np.zeros(len(first), dtype=bool)
            chosen[parts] = True
            order = order[chosen[pidx]]
        at = np.cumsum(sizes) - sizes
        code = self.data.codes[a][order]  # positions among the QI's distinct values: compared as the values
        _, hi, m = _median(code, self.data.rows[order], at, total[parts])
        # value <= m, or < m (codes are integers: <= m - 1) when m is the partition's maximum
        limit = m - (m == hi)
        local = np.repeat(np.arange(len(parts)), sizes)
        return self._halves_ok(order, code, at, local, limit), limit

    def _halves_ok(
        self, order: np.ndarray, code: np.ndarray, first: np.ndarray, pidx: np.ndarray, limit: np.ndarray
    ) -> np.ndarray:
        """Both halves of every partition cut at ``limit`` (per partition, on the QI whose vectors and codes
        ``order`` and ``code`` list) pass the split test for every SA (distinct: ≥ l values; frequency:
        l·h ≤ |X|)."""
        n_parts = len(first)
        ok = np.ones(n_parts, dtype=bool)
        # a half is a run of positions: the left one from the partition's first to its first code above
        # the limit (the codes ascend within a partition)
        scale = int(code.max()) + 2 if len(code) else 1
        split = np.searchsorted(pidx * scale + code, np.arange(n_parts) * scale + limit, side="right")
        bounds = np.stack([first, split], axis=1).reshape(-1)
        left = None
        for j, l_value in enumerate(self.ls):
            words = self.masks[j]
            if words is not None:  # the values of a run: the union of its vectors' sets
                distinct = sum(_popcount(np.bitwise_or.reduceat(w[order], bounds)) for w in words)
                good = np.asarray(distinct) >= max(l_value, 1)
            else:
                if left is None:
                    left = np.zeros(len(self.data.vid), dtype=bool)
                    left[order] = code <= limit[pidx]
                good = self._cells_ok(j, order, pidx, left, l_value)
            ok &= good[0::2] & good[1::2]
        return ok

    def _cells_ok(
        self, j: int, order: np.ndarray, pidx: np.ndarray, left: np.ndarray, l_value: int
    ) -> np.ndarray:
        """Per half (2·partition + 0 left, 1 right) whether it passes SA j's test, from its (vector, value)
        cells: the frequency form, and the distinct form on too many values for bit words."""
        data = self.data
        n_parts = int(pidx[-1]) + 1
        part = np.full(len(data.vid), -1, dtype=np.int64)
        part[order] = pidx
        vec, val, n = data.sa_vec[j], data.sa_val[j], data.sa_n[j]
        sel = part[vec] >= 0
        vec, val, n = vec[sel], val[sel], n[sel]
        n_val = int(data.sa_val[j].max()) + 1 if len(data.sa_val[j]) else 1
        key = val * (2 * n_parts) + 2 * part[vec] + ~left[vec]
        if self.form == "frequency":
            size, _, top = _half_counts(key, n, 2 * n_parts, n_val)
            return np.asarray((l_value * top <= size) & (size > 0))
        # a half has rows exactly when it has a value
        return np.asarray(_half_distinct(key, 2 * n_parts, n_val) >= max(l_value, 1))

    def _width(self, a: int, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Normalized width per partition (NCP of the partition on QI a)."""
        span = self.spans[a]
        if self.kinds[a] == "hierarchy":
            tree = self.trees[a]
            assert tree is not None
            x = lo.astype(np.int64)
            v = hi.astype(np.int64)
            out = (x > v) | (tree.last[x] < v)
            while out.any():
                x[out] = tree.parent[x[out]]
                out[out] = (x[out] > v[out]) | (tree.last[x[out]] < v[out])
            leaves = tree.n_leaves[x]
            return np.where(leaves > 1, leaves / span, 0.0)
        if span <= 0:
            return np.zeros(len(lo))
        return np.asarray((hi - lo) / span, dtype=np.float64)
