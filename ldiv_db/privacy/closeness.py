"""t-closeness (Li, Li, Venkatasubramanian, ICDE 2007): in every class, the Earth Mover's Distance between
the class's SA distribution and the baseline (the whole input's, :mod:`.baseline`) is at most t.

Ground distances (§4.2, §4.3): ``equal`` (every two values at distance 1: half the L1 distance),
``ordered`` (|i − j|/(M − 1) over the ranks of the baseline's M distinct values: numbers ordered as
numbers, text by a declared order) and ``hierarchical`` (level(LCA)/H over the SA's stored hierarchy of
height H, a node being a (level, label) of ``ldiv.hierarchy_level``). Every distance is a fraction over
the common denominator (2 or M − 1 or H)·m·N, so t is compared exactly: t_den·num ≤ t_num·den."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from ..sqlgen.render import render
from ..taxonomy.stored import load
from ..util.lazy import library
from .base import sql_text
from .baseline import DistributionModel, Pairs, ValueCounts

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from ..core.evaluator import SqlEvaluator
    from ..db import Database
else:
    np = library("numpy")
    pd = library("pandas")

DISTANCES = ("equal", "ordered", "hierarchical")


def _number(v: str | None) -> float:
    try:
        return float(v) if v is not None else float("inf")
    except ValueError:
        raise BadInput(f"the ordered distance reads the SA as numbers, and {v!r} is none") from None


def _prefixes(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The baseline's K_i (rows at ranks ≤ i) and Σ_{j<i} K_j, for the ordered distance."""
    k = np.cumsum(b)
    return k, np.concatenate(([0], np.cumsum(k)))


def _sum_at(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Σ values per index, in int64 (``np.bincount`` sums in float64, inexact past 2^53)."""
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, index, values.astype(np.int64))
    return out


def _column_sums(matrix: np.ndarray, into: np.ndarray) -> np.ndarray:
    """Per row, the sums of ``matrix``'s columns by their index ``into`` (0..k−1, each used): exact in
    the matrix's dtype (int64 or Python integers), with no dense 0/1 matrix to multiply by."""
    order = np.argsort(into, kind="stable")
    starts = np.flatnonzero(np.r_[True, into[order][1:] != into[order][:-1]])
    return np.add.reduceat(matrix[:, order], starts, axis=1)


class TCloseness(DistributionModel):
    name = "t-closeness"

    def __init__(
        self,
        n_sa: int,
        t: Any,
        distance: str = "equal",
        *,
        numeric: Sequence[bool] = (),
        sa_order: Sequence[Any] | None = None,
        table: str | None = None,
        sa_names: Sequence[str] = (),
        baseline: ValueCounts | None = None,
    ) -> None:
        super().__init__(n_sa, baseline)
        if t is None:
            raise BadInput("the t-closeness model needs t", "give --t, e.g. --t 0.2 (a distance in [0, 1])")
        self.t = exact(t, "t")
        if not 0 <= self.t <= 1:
            raise BadInput(
                f"t must be in [0, 1], got {t}", "the distances are normalized to [0, 1]: e.g. --t 0.2"
            )
        if distance not in DISTANCES:
            raise BadInput(f"unknown distance {distance!r}", f"use --distance {'|'.join(DISTANCES)}")
        self.distance = distance
        self.numeric = tuple(numeric) or (False,) * n_sa
        self.sa_order = None if sa_order is None else [sql_text(v) for v in sa_order]
        self.table, self.sa_names = table, tuple(sa_names)
        if distance == "ordered" and self.sa_order is None and not all(self.numeric):
            raise BadInput(
                "the ordered distance needs a numeric SA or a declared order of its values",
                "give the order with --sa-order v1,v2,... (lowest first), or use --distance equal|hierarchical",
            )
        if self.sa_order is not None and n_sa != 1:
            raise BadInput("--sa-order orders one sensitive attribute", "check one SA at a time")
        self._tree: dict[int, dict[str | None, tuple[str, ...]]] | None = None

    def with_baseline(self, baseline: ValueCounts) -> TCloseness:
        out = TCloseness(
            self.n_sa,
            self.t,
            self.distance,
            numeric=self.numeric,
            sa_order=self.sa_order,
            table=self.table,
            sa_names=self.sa_names,
            baseline=baseline,
        )
        out._tree = self._tree
        return out

    def own_params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": str(self.t), "distance": self.distance}
        if self.sa_order is not None:
            out["sa_order"] = list(self.sa_order)
        return out

    # ------------------------------------------------------------------ order and tree
    def order(self, s: int, pairs: Pairs) -> list[tuple[str | None, int]]:
        if self.distance != "ordered":
            return super().order(s, pairs)
        if self.sa_order is not None:
            rank = {v: i for i, v in enumerate(self.sa_order)}
            missing = [str(v) for v, _ in pairs if v not in rank]
            if missing:
                raise BadInput(
                    f"--sa-order lacks {len(missing)} value(s) of the SA: {', '.join(missing[:10])}",
                    "list every value of the SA once, lowest first",
                )
            return sorted(pairs, key=lambda p: rank[p[0]])
        return sorted(pairs, key=lambda p: _number(p[0]))

    def prepare(self, db: Database) -> None:
        """The hierarchical distance reads the SA's hierarchy stored for the input table (the source of a
        release): per leaf, its labels from level 0 (itself) to the root."""
        if self.distance != "hierarchical" or self._tree is not None:
            return

        tree: dict[int, dict[str | None, tuple[str, ...]]] = {}
        for s, col in enumerate(self.sa_names, 1):
            h = load(db, self.table or "", col)
            if h is None:
                raise BadInput(
                    f"the hierarchical distance needs a hierarchy of the SA {col!r} of {self.table}, and none is stored",
                    f"import one: ldiv hierarchy import DB --table {self.table} --column '{col}' FILE",
                )
            tree[s] = {row[0]: tuple(row) for row in h.rows()}
        self._tree = tree

    def tree(self, s: int) -> dict[str | None, tuple[str, ...]]:
        if self._tree is None:
            raise BadInput(
                "the hierarchical distance needs the SA's hierarchy", "prepare the model on a database"
            )
        return self._tree[s]

    def height(self, s: int) -> int:
        return max((len(r) - 1 for r in self.tree(s).values()), default=1)

    # ------------------------------------------------------------------ SQL
    def template_params(self) -> dict[str, Any]:
        return {"t_num": self.t.numerator, "t_den": self.t.denominator}

    def template_context(self, ev: SqlEvaluator) -> dict[str, Any]:
        if self.distance != "hierarchical":
            return {}
        target = ev.work("tree")
        ev.db.run(render("privacy/tree_table.sql", target=target))
        rows: list[tuple[int, str | None, int, str]] = []
        for s in range(1, self.n_sa + 1):
            tree, top = self.tree(s), self.height(s)
            for v, _ in self.baseline(s):
                path = tree.get(v)
                if path is None:
                    raise BadInput(
                        f"the SA value {v!r} is no leaf of the hierarchy of {self.sa_names[s - 1]!r}",
                        "re-import the hierarchy with a row for every value of the SA",
                    )
                path = path + (path[-1],) * (top + 1 - len(path))
                rows.extend((s, v, h, label) for h, label in enumerate(path))
        if rows:
            ev.db.insert_frame(target, pd.DataFrame(rows, columns=["s", "v", "h", "node"]))
        return {"tree": target}

    def template_name(self) -> str:
        return f"privacy/t_{self.distance}.sql"

    reads_stats = True

    def points(self, s: int) -> list[int]:
        """Σ_u N_u·d(v, u) per baseline value v over the distance's integer numerator d (equal: 2 per other
        value, over 2; ordered: |r_v − r_u|, over M − 1; hierarchical: level(v, u), over H): the EMD of a
        class holding v alone is m·pt / (den·m·N), since all its mass moves from v. Ordered by prefix sums;
        hierarchical as Σ_{h<H} (N − the rows under v's ancestor at level h)."""
        pairs = self.baseline(s)
        counts = [n for _, n in pairs]
        big_n = sum(counts)
        if self.distance == "equal":
            return [2 * (big_n - n) for n in counts]
        if self.distance == "ordered":
            out, below, below_w = [], 0, 0  # rows and rank-weighted rows of the values below
            total_w = sum(r * n for r, n in enumerate(counts))
            for r, n in enumerate(counts):
                above, above_w = big_n - below - n, total_w - below_w - r * n
                out.append(r * below - below_w + above_w - r * above)
                below, below_w = below + n, below_w + r * n
            return out
        tree, top = self.tree(s), self.height(s)
        paths = [tree[v] + (tree[v][-1],) * (top + 1 - len(tree[v])) for v, _ in pairs]
        under: dict[tuple[int, str], int] = {}
        for p, n in zip(paths, counts, strict=True):
            for h in range(top):
                under[(h, p[h])] = under.get((h, p[h]), 0) + n
        return [sum(big_n - under[(h, p[h])] for h in range(top)) for p in paths]

    # ------------------------------------------------------------------ numpy
    def distances(self, s: int, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per class (row of ``counts`` over the baseline's values): the EMD as num / den, exactly."""
        top = self.height(s) if self.distance == "hierarchical" else 1
        d, m, big_n, _ = self.diff(s, counts, factor=self.t.denominator * self.t.numerator * top)
        width = counts.shape[1]
        if self.distance == "equal":
            return np.abs(d).sum(axis=1), 2 * m * big_n
        if self.distance == "ordered":
            return np.abs(np.cumsum(d, axis=1)).sum(axis=1), max(width - 1, 1) * m * big_n
        num = np.zeros(len(counts), dtype=d.dtype)
        for h, child, up in self._levels(s):
            extra = _column_sums(d, child)  # per class and child: Σ D over the leaves under it
            pos = _column_sums(np.where(extra > 0, extra, 0), up)
            neg = _column_sums(np.where(extra < 0, -extra, 0), up)
            num = num + h * np.minimum(pos, neg).sum(axis=1)
        return num, top * m * big_n

    def _levels(self, s: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """Per level h of the SA's tree (1..H): each baseline value's node at level h − 1 (its child
        index) and each such node's parent at level h, as codes; made once per baseline."""

        def make(pairs: list[tuple[str | None, int]]) -> list[tuple[int, np.ndarray, np.ndarray]]:
            tree, top = self.tree(s), self.height(s)
            paths = [tree[v] + (tree[v][-1],) * (top + 1 - len(tree[v])) for v, _ in pairs]
            out = []
            for h in range(1, top + 1):
                child_of = {c: i for i, c in enumerate(sorted({p[h - 1] for p in paths}))}
                parent_of = {c: i for i, c in enumerate(sorted({p[h] for p in paths}))}
                child = np.array([child_of[p[h - 1]] for p in paths], dtype=np.int64)
                up = np.zeros(len(child_of), dtype=np.int64)
                up[child] = [parent_of[p[h]] for p in paths]
                out.append((h, child, up))
            return out

        levels: list[tuple[int, np.ndarray, np.ndarray]] = self.memo(s, "levels", make)
        return levels

    def _under(self, s: int, b: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per level of :meth:`_levels`: the baseline's rows under each child node and each parent."""
        out = []
        for _, child_of, parent_of_child in self._levels(s):
            b_child = _sum_at(child_of, b, len(parent_of_child))
            out.append((b_child, _sum_at(parent_of_child, b_child, int(parent_of_child.max()) + 1)))
        return out

    def cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        if self.distance == "ordered":
            return self._ordered_cells_ok(s, group, value, n, n_groups)
        if self.distance == "hierarchical":
            return self._hierarchical_cells_ok(s, group, value, n, n_groups)
        got = self.cell_diff(s, group, value, n, n_groups, factor=self.t.denominator * self.t.numerator)
        if got is None:
            return None
        d, m, base, _, big_n = got
        # Σ_v |D_v| = Σ over the cells (|D| − N_v·m) + N·m: an absent value's |D| is N_v·m
        num = np.zeros(n_groups, dtype=np.int64)
        np.add.at(num, group, np.abs(d) - base)
        num += big_n * m
        ok = (num * self.t.denominator <= 2 * m * big_n * self.t.numerator) & (m > 0)
        return np.asarray(ok, dtype=bool)

    def _fits(self, s: int, height: int = 1) -> bool:
        """Whether the ordered and hierarchical sums (a term ≤ 2·N·m·M, times the height) times t's parts
        stay within int64; past it the callers fall back to the rows."""
        b, big_n = self.totals(s)
        factor = max(self.t.numerator, self.t.denominator, 1) * height
        return 4 * max(big_n, 1) ** 2 * max(len(b), 1) * factor < 2**62

    def _ordered_cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        """The ordered EMD's numerator Σ_i |C_i| from the cells: C_i = N·c_i − m·K_i, with c_i a group's rows
        at ranks ≤ i (a step at each of its cells) and K_i the baseline's (non-decreasing). Between two
        steps c is constant, so the sum splits where m·K_i reaches N·c (a search in K) and each side is a
        prefix sum of K: the same integers as :meth:`distances`, in O(cells · log M). None where a term
        (≤ 2·N·m·M) times t's parts would leave int64."""
        if not self._fits(s):
            return None
        b, big_n = self.totals(s)
        width = len(b)
        k, prefix = self.memo(s, "prefix", lambda _: _prefixes(b))  # K_i and Σ_{j<i} K_j
        m = _sum_at(group, n, n_groups)
        order = np.lexsort((value, group))
        g, v, c = group[order], value[order].astype(np.int64), n[order].astype(np.int64)
        start = np.ones(len(g), dtype=bool)
        start[1:] = g[1:] != g[:-1]
        run = np.cumsum(c)
        c = run - np.maximum.accumulate(np.where(start, run - c, 0))  # the group's rows at ranks ≤ v
        end = np.empty(len(g), dtype=np.int64)  # where the step's segment ends: the group's next rank, or M
        end[:-1] = np.where(start[1:], width, v[1:])
        end[-1:] = width
        mg = m[g]
        level = big_n * c
        # the first i in [v, end) with m·K_i ≥ N·c: K_i ≥ ⌈N·c / m⌉
        split = np.clip(np.searchsorted(k, (level + mg - 1) // mg, side="left"), v, end)
        term = (
            level * (split - v)
            - mg * (prefix[split] - prefix[v])
            + mg * (prefix[end] - prefix[split])
            - level * (end - split)
        )
        num = np.zeros(n_groups, dtype=np.int64)
        np.add.at(num, g, term)
        first = v[start]  # below a group's first rank c = 0: Σ m·K_i
        num[g[start]] += m[g[start]] * prefix[first]
        den = max(width - 1, 1) * m * big_n
        ok = (num * self.t.denominator <= den * self.t.numerator) & (m > 0)
        return np.asarray(ok, dtype=bool)

    def _hierarchical_cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        """The hierarchical EMD's numerator from the cells: per level h and parent node, h·min(pos, neg)
        over its children's extras x = N·(the class's rows under the child) − m·(the baseline's). A child
        the class has no row under has x = −m·B_child, so a parent's neg is m·B_parent less what its
        children with rows hold (m·B_child less their own negative part), and a parent none of whose
        children has a row costs 0: the same integers as :meth:`distances`, over the cells' nodes only.
        None where a term times t's parts and the height would leave int64."""
        top = self.height(s)
        if not self._fits(s, top):
            return None
        b, big_n = self.totals(s)
        cells_n = n.astype(np.int64)
        m = _sum_at(group, cells_n, n_groups)
        num = np.zeros(n_groups, dtype=np.int64)
        for (h, child_of, parent_of_child), (b_child, b_parent) in zip(
            self._levels(s), self.memo(s, "under", lambda _: self._under(s, b)), strict=True
        ):
            n_children, n_parents = len(b_child), len(b_parent)
            # the (group, child) pairs the cells reach, with the class's rows under each
            pair, at = np.unique(group * n_children + child_of[value], return_inverse=True)
            rows = _sum_at(at, cells_n, len(pair))
            g, child = pair // n_children, pair % n_children
            x = big_n * rows - m[g] * b_child[child]
            held = m[g] * b_child[child] - np.maximum(-x, 0)  # what the child takes off the parent's neg
            key, back = np.unique(g * n_parents + parent_of_child[child], return_inverse=True)
            pos = _sum_at(back, np.maximum(x, 0), len(key))
            off = _sum_at(back, held, len(key))
            pg, parent = key // n_parents, key % n_parents
            neg = m[pg] * b_parent[parent] - off
            np.add.at(num, pg, h * np.minimum(pos, neg))
        den = top * m * big_n
        ok = (num * self.t.denominator <= den * self.t.numerator) & (m > 0)
        return np.asarray(ok, dtype=bool)

    def removals_ok(self, s: int, row: np.ndarray, at: np.ndarray) -> np.ndarray | None:
        """Every candidate ``row`` less one row at ``at[i]``: D' = E − N·e_v with E = row·N − B·(m − 1)
        shared, so the equal distance's Σ|D'| is Σ|E| corrected at v, and the ordered one's partial sums
        are F_r = Σ_{j≤r} E_j less N from v on: a prefix sum of |F| and a suffix sum of |F − N|. The same
        integers as :meth:`rows_ok` on the candidates' rows, in O(M + candidates). The hierarchical
        distance (and sums past int64) build the rows."""
        if self.distance == "hierarchical" or not self._fits(s):
            return None
        b, big_n = self.totals(s)
        width, m = len(b), int(row.sum()) - 1
        e = row.astype(np.int64) * big_n - b * m
        if self.distance == "equal":
            own = e[at]
            num = int(np.abs(e).sum()) - np.abs(own) + np.abs(own - big_n)
            den = 2 * m * big_n
        else:
            f = np.cumsum(e)
            below = np.concatenate(([0], np.cumsum(np.abs(f))))  # Σ_{r<v} |F_r|
            above = np.concatenate((np.cumsum(np.abs(f - big_n)[::-1])[::-1], [0]))  # Σ_{r≥v} |F_r − N|
            num = below[at] + above[at]
            den = max(width - 1, 1) * m * big_n
        ok = (num * self.t.denominator <= den * self.t.numerator) & (m > 0)
        return np.asarray(np.broadcast_to(ok, at.shape), dtype=bool)

    def rows_ok(self, s: int, counts: np.ndarray) -> np.ndarray:
        num, den = self.distances(s, counts)
        ok = (num * self.t.denominator <= den * self.t.numerator) & (counts.sum(axis=1) > 0)
        return np.asarray(ok, dtype=bool)

    def distance_of(self, counts: Mapping[Any, int], s: int = 1) -> Fraction:
        """One class's EMD (for tests and messages)."""
        num, den = self.distances(s, self.matrix(s, counts))
        return Fraction(int(num[0]), int(den[0]))
