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
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...core.options import Option
from ...errors import BadInput, HierarchyError
from ...privacy import Distinct, Frequency
from ...sqlgen.render import Ident, render
from ..base import Algorithm, AnonymizeRequest, Partitioning, lca_hierarchy_ids
from ..shared.lca import INTEGER_TYPES, Integers, lca_labels
from ..shared.trees import Tree, load_trees, qi_kinds

FORMS = ("distinct", "frequency")
DENSE_CELLS = 8_000_000  # partitions × values counted in one histogram (64 MB of float64)


class Mondrian(Algorithm):
    name = "mondrian"
    generalizes_by_hierarchy = True
    # rows are read grouped by their QI vector (vid: a rank of the vectors' values), the rounds run over the
    # vectors in vid order, and a row id only keys the assignment (rid -> vid -> gid)
    order_free = True
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
                ords=ords,
                sas=sas,
            )
        )
        frame = db.df(render("mondrian/vectors.sql", rows=rows, ords=ords, sas=sas), bulk=True)
        self._check_missing(request, frame, kinds)
        trees = load_trees(db, hids, kinds)
        data = _Vectors(frame, len(ords), len(sas), kinds)
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
        gid = part.run()
        t_part = time.perf_counter()

        classes = db.work_table("mondrian_classes")
        db.run(render("mondrian/classes.sql", target=classes))
        db.insert_frame(classes, pd.DataFrame({"vid": data.vid, "gid": gid + 1}))
        assignment = db.work_table("mondrian_assignment")
        db.run(render("mondrian/assignment.sql", target=assignment, rows=rows, classes=classes))
        labels = lca_labels(db, _labellers(request, kinds, tree_of, data), data.leaf_codes, gid + 1)
        return Partitioning(
            assignment=assignment,
            recoding="lca",
            group_labels=labels,  # None: release/labels_lca.sql labels the groups
            details={
                "l": max(model.ls),
                "form": form,
                "classes": int(gid.max()) + 1 if len(gid) else 0,
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
    def _check_missing(request: AnonymizeRequest, frame: pd.DataFrame, kinds: Sequence[str]) -> None:
        if not int(frame["missing"].sum()):
            return
        for i, (col, kind) in enumerate(zip(request.inputs.qi, kinds, strict=True), start=1):
            if frame[f"o{i}"].isna().any():
                if kind == "hierarchy":
                    raise HierarchyError(
                        f"some values of {col.name!r} are not leaves of its hierarchy",
                        f"re-import it with a row for each: ldiv hierarchy import DB --table "
                        f"{request.inputs.table.name} --column '{col.name}' FILE",
                    )
                raise BadInput(
                    f"QI {col.name!r} has NULL values; Mondrian needs numbers there", "filter them out first"
                )


class _Vectors:
    """The distinct QI vectors (ordinals, row counts) and their SA value counts, from ``vectors.sql``."""

    def __init__(self, frame: pd.DataFrame, d: int, k: int, kinds: Sequence[str]) -> None:
        # the rows in (vid, s, v) order, a key of theirs: sorted here, on three integer columns, not by
        # the statement with its every column
        vid, s, v = (frame[c].to_numpy(dtype=np.int64) for c in ("vid", "s", "v"))
        order = np.lexsort((v, s, vid))
        vid, s, v = vid[order], s[order], v[order]
        n = frame["n"].to_numpy(dtype=np.int64)[order]
        first = np.flatnonzero(np.r_[True, vid[1:] != vid[:-1]]) if len(vid) else np.zeros(0, dtype=np.int64)
        self.vid = vid[first]
        index = np.searchsorted(self.vid, vid)
        self.ords = frame[[f"o{i}" for i in range(1, d + 1)]].to_numpy(dtype=np.float64)[order[first]]
        # per QI its distinct ordinals ascending, and each vector's position among them
        self.values: list[np.ndarray] = []
        self.codes: list[np.ndarray] = []
        for a in range(d):
            values, codes = np.unique(self.ords[:, a], return_inverse=True)
            self.values.append(values)
            self.codes.append(codes.reshape(-1).astype(np.int64))
        self.sa_vec: list[np.ndarray] = []
        self.sa_val: list[np.ndarray] = []
        self.sa_n: list[np.ndarray] = []
        for j in range(1, k + 1):
            mask = s == j
            self.sa_vec.append(index[mask])
            self.sa_val.append(v[mask])
            self.sa_n.append(n[mask])
        self.rows = np.bincount(self.sa_vec[0], weights=self.sa_n[0], minlength=len(self.vid)).astype(
            np.int64
        )
        self.kinds = kinds

    def leaf_codes(self) -> list[np.ndarray]:
        """Per QI each vector's code for :func:`~ldiv_db.algorithms.shared.lca.lca_labels`: a taxonomy's
        leaf node id (the ordinal), else the rank of the value."""
        return [
            self.ords[:, a].astype(np.int64) if kind == "hierarchy" else self.codes[a]
            for a, kind in enumerate(self.kinds)
        ]


def _labellers(
    request: AnonymizeRequest, kinds: Sequence[str], trees: Sequence[Tree | None], data: _Vectors
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
    code: np.ndarray, p: np.ndarray, w: np.ndarray, n_values: int, n_parts: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per partition the positions among one QI's distinct values (``code``: each vector's) of its smallest
    and largest value and of its lower median m (the ⌈|X|/2⌉-th smallest value, rows counted). From the
    partitions' cumulative histograms over the values where they fit in :data:`DENSE_CELLS` (laid out
    value-major, so each statistic is a count down the columns), else by sorting each partition's vectors."""
    if n_parts * n_values <= DENSE_CELLS:
        hist = np.bincount(code * n_parts + p, weights=w, minlength=n_parts * n_values)
        cum = np.cumsum(hist.reshape(n_values, n_parts), axis=0)
        total = cum[-1]
        # cum never falls and every vector has rows: the first value present is the count of zero prefixes,
        # the last the count of prefixes short of the total, the median the count short of half of it
        lo = np.count_nonzero(cum == 0, axis=0)
        hi = np.count_nonzero(cum < total, axis=0)
        med = np.count_nonzero(cum < (total.astype(np.int64) + 1) // 2, axis=0)
        return lo, hi, med
    order = np.lexsort((code, p))
    ps, xs, ws = p[order], code[order], w[order]
    starts = np.searchsorted(ps, np.arange(n_parts))
    total = np.add.reduceat(ws, starts)
    ends = np.append(starts[1:], len(ps)) - 1
    cum = np.cumsum(ws)
    base = np.where(starts > 0, cum[np.maximum(starts - 1, 0)], 0)
    scale = int(cum[-1]) + 1
    key = ps * scale + (cum - base[ps])
    at = np.searchsorted(key, np.arange(n_parts) * scale + (total + 1) // 2)
    return xs[starts], xs[ends], xs[at]


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


def _spans(data: _Vectors, kinds: Sequence[str], trees: Sequence[Tree | None]) -> list[float]:
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
    """The rounds of strict Mondrian over the QI vectors; every round cuts all open partitions."""

    def __init__(
        self,
        data: _Vectors,
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

    def run(self) -> np.ndarray:
        data = self.data
        nv = len(data.vid)
        gid = np.full(nv, -1, dtype=np.int64)
        part = np.zeros(nv, dtype=np.int64)  # open partition of every open vector
        open_vec = np.arange(nv, dtype=np.int64)
        next_gid = 0
        done_rows = 0
        while len(open_vec):
            self.rounds += 1
            p = part[open_vec]
            n_parts = int(p.max()) + 1
            best_attr, cut_left = self._choose(open_vec, p, n_parts)
            final = best_attr[p] < 0
            closing = np.flatnonzero(np.bincount(p[final], minlength=n_parts))
            # number the closed partitions in partition order
            new_id = np.full(n_parts, -1, dtype=np.int64)
            new_id[closing] = next_gid + np.arange(len(closing))
            gid[open_vec[final]] = new_id[p[final]]
            next_gid += len(closing)
            done_rows += int(data.rows[open_vec[final]].sum())
            # cut the others: partition 2·rank + (0 left, 1 right)
            keep = ~final
            cutting = np.flatnonzero(np.bincount(p[keep], minlength=n_parts))
            rank = np.full(n_parts, -1, dtype=np.int64)
            rank[cutting] = np.arange(len(cutting))
            open_vec = open_vec[keep]
            part[open_vec] = 2 * rank[p[keep]] + np.where(cut_left[keep], 0, 1)
            if self.progress is not None:
                self.progress(done_rows)
        return gid

    def _choose(self, vec: np.ndarray, p: np.ndarray, n_parts: int) -> tuple[np.ndarray, np.ndarray]:
        """Per open partition the QI to cut (-1: none), and per open vector whether it goes left."""
        data = self.data
        d = data.ords.shape[1]
        w = data.rows[vec]
        widths = np.full((n_parts, d), -np.inf)
        lefts = np.zeros((d, len(vec)), dtype=bool)
        cells = self._sa_cells(vec, p, n_parts)  # the same for every QI of the round
        for a in range(d):
            code = data.codes[a][vec]  # positions among the QI's distinct values: compared as the values
            lo, hi, m = _median(code, p, w, len(data.values[a]), n_parts)
            # value <= m, or < m (codes are integers: <= m - 1) when m is the partition's maximum
            left = code <= (m - (m == hi))[p]
            lefts[a] = left
            ok = (lo < hi) & self._halves_ok(cells, left, n_parts)
            width = self._width(a, data.values[a][lo], data.values[a][hi])
            widths[:, a] = np.where(ok & (width > 0), width, -np.inf)
        best = np.argmax(widths, axis=1)
        allowed = np.isfinite(widths[np.arange(n_parts), best])
        best_attr = np.where(allowed, best, -1)
        cut_left = lefts[np.maximum(best_attr[p], 0), np.arange(len(vec))]
        return best_attr, cut_left

    def _sa_cells(
        self, vec: np.ndarray, p: np.ndarray, n_parts: int
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
        """Per SA the (vector, value) cells of the open vectors: each cell's position in ``vec``, its key
        in the left half of its partition (value code · 2 · n_parts + half, half = 2 · partition; the
        right half's key is one more), its rows, and the SA's number of value codes n_val."""
        data = self.data
        where = np.full(len(data.vid), -1, dtype=np.int64)
        where[vec] = np.arange(len(vec))
        cells = []
        for j in range(len(self.ls)):
            pos = where[data.sa_vec[j]]
            sel = pos >= 0
            n_val = int(data.sa_val[j].max()) + 1 if len(data.sa_val[j]) else 1
            pos = pos[sel]
            cells.append((pos, data.sa_val[j][sel] * (2 * n_parts) + 2 * p[pos], data.sa_n[j][sel], n_val))
        return cells

    def _halves_ok(
        self, cells: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, int]], left: np.ndarray, n_parts: int
    ) -> np.ndarray:
        """Both halves pass the split test for every SA (distinct: ≥ l values; frequency: l·h ≤ |X|);
        ``cells``: :meth:`_sa_cells`' of the round, ``left``: per open vector whether it goes left."""
        ok = np.ones(n_parts, dtype=bool)
        for (pos, key, n, n_val), l_value in zip(cells, self.ls, strict=True):
            key_here = key + ~left[pos]
            if self.form == "frequency":
                size, _, top = _half_counts(key_here, n, 2 * n_parts, n_val)
                good = (l_value * top <= size) & (size > 0)
            else:  # a half has rows exactly when it has a value
                good = _half_distinct(key_here, 2 * n_parts, n_val) >= max(l_value, 1)
            ok &= good[0::2] & good[1::2]
        return ok

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
