"""t-closeness, δ-disclosure and β-likeness against brute force on small random tables (hypothesis).

The oracle is written from the papers, independently of the SQL and of the closed forms the code uses:
the EMD is solved as a transportation problem (successive shortest paths, exact fractions) over the
ground distance of Li et al. 2007 §4 — equal (1), ordered (|i − j|/(M − 1) over the ranks of the
whole table's values, numbers ordered as numbers), hierarchical (level of the lowest common ancestor / H);
δ-disclosure is Brickell & Shmatikov 2008 Def. 4 (natural log, strict <, an absent value fails) and the
reference tool's variant (log2, absent values ignored); β-likeness is Cao & Karras 2012 Def. 2 / 3. The
baseline is the whole table's SA distribution. ``check`` must give each class's verdict (the number of
violating classes) and the largest measure; the algorithms' judge (``group_ok``) must agree per class."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from ldiv_db import taxonomy

LEAVES = ["a", "b", "c", "d", "e"]
TREE = {
    "a": ("a", "ab", "*"),
    "b": ("b", "ab", "*"),
    "c": ("c", "cde", "*"),
    "d": ("d", "cde", "*"),
    "e": ("e", "cde", "*"),
}
NUMBERS = [2, 9, 10, 30]  # as text "10" < "2" < "30" < "9": the ordered distance must rank them as numbers


def emd(
    p: dict[object, Fraction], q: dict[object, Fraction], dist: dict[tuple[object, object], Fraction]
) -> Fraction:
    """Earth Mover's Distance by successive shortest paths on the transportation network, exactly."""
    src = [v for v in p if p[v] > 0]
    dst = [v for v in q if q[v] > 0]
    supply, demand = {v: p[v] for v in src}, {v: q[v] for v in dst}
    flow: dict[tuple[object, object], Fraction] = Counter()  # type: ignore[assignment]
    total = Fraction(0)
    while any(x > 0 for x in supply.values()):
        # Bellman-Ford from every source with supply left, over forward arcs (i->j) and reverse arcs (j->i)
        nodes = [("s", v) for v in src] + [("t", v) for v in dst]
        best: dict[tuple[str, object], Fraction] = {n: Fraction(10**9) for n in nodes}
        prev: dict[tuple[str, object], tuple[str, object] | None] = {}
        for v in src:
            if supply[v] > 0:
                best[("s", v)], prev[("s", v)] = Fraction(0), None
        for _ in range(len(nodes)):
            for i in src:
                for j in dst:
                    a, b = ("s", i), ("t", j)
                    if best[a] + dist[i, j] < best[b]:
                        best[b], prev[b] = best[a] + dist[i, j], a
                    if flow[i, j] > 0 and best[b] - dist[i, j] < best[a]:
                        best[a], prev[a] = best[b] - dist[i, j], b
        end = min((n for n in nodes if n[0] == "t" and demand[n[1]] > 0), key=lambda n: best[n])
        path = [end]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])  # type: ignore[arg-type]
        path.reverse()
        push = min(supply[path[0][1]], demand[end[1]])
        for a, b in itertools.pairwise(path):
            if a[0] == "t":  # a reverse arc j -> i cancels flow i -> j
                push = min(push, flow[b[1], a[1]])
        for a, b in itertools.pairwise(path):
            if a[0] == "s":
                flow[a[1], b[1]] += push
                total += push * dist[a[1], b[1]]
            else:
                flow[b[1], a[1]] -= push
                total -= push * dist[b[1], a[1]]
        supply[path[0][1]] -= push
        demand[end[1]] -= push
    return total


def ground(kind: str, domain: list[object]) -> dict[tuple[object, object], Fraction]:
    if kind == "equal":
        return {(i, j): Fraction(int(i != j)) for i in domain for j in domain}
    if kind == "ordered":
        rank = {v: r for r, v in enumerate(sorted(domain, key=lambda x: float(str(x))))}
        span = max(len(domain) - 1, 1)
        return {(i, j): Fraction(abs(rank[i] - rank[j]), span) for i in domain for j in domain}
    height = 2
    return {
        (i, j): Fraction(next(h for h in range(height + 1) if TREE[str(i)][h] == TREE[str(j)][h]), height)
        for i in domain
        for j in domain
    }


def shares(values: list[object]) -> dict[object, Fraction]:
    n = len(values)
    return {v: Fraction(c, n) for v, c in Counter(values).items()}


def measure(model: str, variant: str, cls: list[object], whole: list[object]) -> Fraction | float:
    p, q = shares(cls), shares(whole)
    if model in ("equal", "ordered", "hierarchical"):
        return emd(p, q, ground(model, list(q)))
    if model == "delta":
        logs = []
        for v, qv in q.items():
            if v not in p:
                if variant == "paper":
                    return math.inf
                continue
            r = abs(math.log(p[v] / qv))
            logs.append(r / math.log(2) if variant == "arx" else r)
        return max(logs, default=0.0)
    gains = [(p[v] - qv) / qv for v, qv in q.items() if p.get(v, 0) > qv]
    return max(gains, default=Fraction(0))


def passes(model: str, variant: str, cls: list[object], whole: list[object], bound: Fraction) -> bool:
    m = measure(model, variant, cls, whole)
    if model == "delta":
        return m < float(bound)
    if model == "beta" and variant == "enhanced":
        p, q = shares(cls), shares(whole)
        return m <= bound and all((p[v] - q[v]) / q[v] <= -math.log(q[v]) for v in p if p[v] > q[v])
    return m <= bound


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dist") / "h.csv"
    path.write_text("".join(";".join(TREE[v]) + "\n" for v in LEAVES))
    return path


CASES = [
    ("equal", "", "t-closeness", {"distance": "equal"}),
    ("ordered", "", "t-closeness", {"distance": "ordered"}),
    ("hierarchical", "", "t-closeness", {"distance": "hierarchical"}),
    ("delta", "paper", "delta-disclosure", {}),
    ("delta", "arx", "delta-disclosure", {"delta_variant": "arx"}),
    ("beta", "basic", "beta-likeness", {}),
    ("beta", "enhanced", "beta-likeness", {"likeness": "enhanced"}),
]


@pytest.mark.parametrize(("kind", "variant", "model", "options"), CASES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_brute_force(
    store: Path, kind: str, variant: str, model: str, options: dict, data: st.DataObject
) -> None:  # type: ignore[type-arg]
    domain: list[object] = list(NUMBERS) if kind == "ordered" else list(LEAVES)
    rows = data.draw(
        st.lists(st.tuples(st.integers(0, 3), st.sampled_from(domain)), min_size=1, max_size=14), label="rows"
    )
    bound = data.draw(
        st.sampled_from([Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(3, 2)])
    )
    key = {"t-closeness": "t", "delta-disclosure": "delta", "beta-likeness": "beta"}[model]
    con = duckdb.connect()
    sa_type = "INTEGER" if kind == "ordered" else "VARCHAR"
    con.execute(f"CREATE TABLE t (row_id INTEGER, q INTEGER, s {sa_type})")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", [(i, q, s) for i, (q, s) in enumerate(rows, 1)])
    if kind == "hierarchical":
        taxonomy.import_hierarchy(ldiv_db.Database.open(con), "t", "s", store)
    t_bound = min(bound, Fraction(1)) if key == "t" else bound
    res = ldiv_db.check(con, "t", ["q"], "s", model=model, **{key: str(t_bound)}, **options)
    whole = [s for _, s in rows]
    classes: dict[int, list[object]] = {}
    for q, s in rows:
        classes.setdefault(q, []).append(s)
    expected_bad = sum(not passes(kind, variant, c, whole, t_bound) for c in classes.values())
    assert res.violating_groups == expected_bad
    top = max(measure(kind, variant, c, whole) for c in classes.values())
    got = res.largest[key]
    if isinstance(top, Fraction):
        assert got.exact == top
    elif math.isinf(top):
        assert got.value is not None and math.isinf(got.value)
    else:
        assert got.value == pytest.approx(top, rel=1e-9, abs=1e-12)
    judge = res.model
    assert judge is not None
    for c in classes.values():
        counts = Counter(str(v) for v in c)
        assert judge.group_ok(counts) == passes(kind, variant, c, whole, t_bound)  # type: ignore[arg-type]
    con.close()


def ordered_emd(cls: list[int], whole: list[int]) -> Fraction:
    """The ordered distance's EMD in its closed form (Li et al. 2007 §4.2): Σ_i |Σ_{j≤i} (p_j − q_j)| over
    the whole table's values in numeric order, over M − 1."""
    domain = sorted(set(whole))
    p, q = shares(cls), shares(whole)  # type: ignore[arg-type]
    run, total = Fraction(0), Fraction(0)
    for v in domain:
        run += p.get(v, Fraction(0)) - q[v]
        total += abs(run)
    return total / max(len(domain) - 1, 1)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_ordered_distance_on_wide_domains(data: st.DataObject) -> None:
    """Groups of many values over a domain of up to 40 (the SQL splits each step of a group's cumulative
    counts where it crosses the baseline's): the violating classes and the largest EMD exactly, with t
    drawn at a class's own EMD (the boundary passes)."""
    width = data.draw(st.integers(2, 40), label="width")
    domain = data.draw(st.lists(st.integers(-50, 500), min_size=width, max_size=width, unique=True))
    rows = data.draw(
        st.lists(st.tuples(st.integers(0, 5), st.sampled_from(domain)), min_size=2, max_size=120),
        label="rows",
    )
    whole = [s for _, s in rows]
    classes: dict[int, list[int]] = {}
    for q, s in rows:
        classes.setdefault(q, []).append(s)
    measures = {q: ordered_emd(c, whole) for q, c in classes.items()}
    t = data.draw(st.sampled_from(sorted(set(measures.values()))), label="t")
    con = duckdb.connect()
    con.execute("CREATE TABLE t (q INTEGER, s INTEGER)")
    con.executemany("INSERT INTO t VALUES (?, ?)", rows)
    res = ldiv_db.check(con, "t", ["q"], "s", model="t-closeness", t=str(t), distance="ordered")
    assert res.violating_groups == sum(m > t for m in measures.values())
    assert res.largest["t"].exact == max(measures.values())
    con.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hierarchical_distance_on_wider_trees(tmp_path: Path, data: st.DataObject) -> None:
    """Groups of several values over trees of up to 16 leaves and height 2 or 3 (the SQL reads a group's
    own leaves per level and parent): the violating classes and the largest EMD, against the
    transportation problem, with t drawn at a class's own EMD."""
    leaves = data.draw(st.integers(2, 16), label="leaves")
    height = data.draw(st.integers(2, 3), label="height")
    fan = data.draw(st.integers(2, 3), label="fan")
    tree = {
        f"x{i}": (f"x{i}", *(f"n{h}_{i // fan**h}" for h in range(1, height)), "*") for i in range(leaves)
    }
    domain = list(tree)
    rows = data.draw(
        st.lists(st.tuples(st.integers(0, 3), st.sampled_from(domain)), min_size=2, max_size=40), label="rows"
    )
    whole = [s for _, s in rows]
    used = set(whole)
    dist = {
        (i, j): Fraction(next(h for h in range(height + 1) if tree[i][h] == tree[j][h]), height)
        for i in used
        for j in used
    }
    classes: dict[int, list[str]] = {}
    for q, s in rows:
        classes.setdefault(q, []).append(s)
    measures = {q: emd(shares(c), shares(whole), dist) for q, c in classes.items()}  # type: ignore[arg-type]
    t = data.draw(st.sampled_from(sorted(set(measures.values()))), label="t")
    path = tmp_path / f"tree_{leaves}_{height}_{fan}.csv"
    path.write_text("".join(";".join(tree[v]) + "\n" for v in domain))
    con = duckdb.connect()
    con.execute("CREATE TABLE t (q INTEGER, s VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", rows)
    taxonomy.import_hierarchy(ldiv_db.Database.open(con), "t", "s", path)
    res = ldiv_db.check(con, "t", ["q"], "s", model="t-closeness", t=str(t), distance="hierarchical")
    assert res.violating_groups == sum(m > t for m in measures.values())
    assert res.largest["t"].exact == max(measures.values())
    con.close()
