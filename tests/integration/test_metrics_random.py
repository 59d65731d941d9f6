"""compute_metrics against an independent pure-Python computation on random small releases (hypothesis).

The oracle reads covers straight from the ARX rows (a label's cover = the leaves whose row contains it),
parses intervals itself, enumerates the KL points one published row at a time, and spells every formula
of SPEC §0.7 / §5.4 out per row.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.utility import Measured, MetricsOptions, compute_metrics
from tests.templates.cases_metrics import store_arx_rows

# QIs: cat (hierarchy; leaf 'e' never occurs in the data), num (numeric, no hierarchy),
# flat (categorical, no hierarchy), band (numeric with an interval hierarchy over 0..5).
CAT_ROWS = [["a", "ab", "*"], ["b", "ab", "*"], ["c", "cde", "*"], ["d", "cde", "*"], ["e", "cde", "*"]]
BAND_ROWS = [[str(v), "0-2" if v <= 2 else "3-5", "*"] for v in range(6)]
HIER: dict[str, list[list[str]] | None] = {"cat": CAT_ROWS, "num": None, "flat": None, "band": BAND_ROWS}
NUMERIC = {"cat": False, "num": True, "flat": False, "band": True}
QI = list(HIER)


@dataclass(frozen=True)
class Case:
    rows: list[tuple[Any, ...]]  # cat, num, flat, band, sa, cls
    release: list[tuple[Any, ...]]  # labels x4, sa-or-None, cls, group
    with_group: bool
    weights: list[Fraction]


# ---------------------------------------------------------------- oracle
def domain(attr: str, rows: list[tuple[Any, ...]]) -> list[str]:
    h = HIER[attr]
    if h is not None:
        return [r[0] for r in h]
    return sorted({str(r[QI.index(attr)]) for r in rows})


def parse_interval(label: str) -> tuple[float, float] | None:
    head, sep, tail = label[1:].partition("-")
    try:
        lo = float(label[0] + head)
        return (lo, float(tail)) if sep else (lo, lo)
    except ValueError:
        return None


def cover(attr: str, label: str, rows: list[tuple[Any, ...]]) -> tuple[set[str], str]:
    """(cover, kind) with kind in leaf / node / star / interval."""
    dom = domain(attr, rows)
    h = HIER[attr]
    if h is not None:
        under = {r[0] for r in h if label in r}
        if under:
            return under, (
                "leaf" if label == next(r[0] for r in h if label in r) and len(under) == 1 else "node"
            )
    if label == "*":
        return set(dom), "star"
    if label in dom:
        return {label}, "leaf"
    iv = parse_interval(label) if NUMERIC[attr] else None
    assert iv is not None, label
    return {v for v in dom if iv[0] <= float(v) <= iv[1]}, "interval"


def oracle(case: Case) -> dict[str, Any]:
    rows, rel = case.rows, case.release
    n_src, n_pub, d = len(rows), len(rel), len(QI)
    deleted = n_src - n_pub
    il = Fraction(0)
    lm = Fraction(0)
    share_sum = [Fraction(0)] * d
    stars = starred = sa_null = 0
    for r in rel:
        row_star = False
        for i, attr in enumerate(QI):
            label = r[i]
            cov, kind = cover(attr, label, rows)
            size = len(domain(attr, rows))
            if NUMERIC[attr]:
                vals = [float(x[i]) for x in rows]
                lo_t, hi_t = min(vals), max(vals)
                if kind == "leaf":
                    ncp = Fraction(0)
                elif kind == "star":
                    ncp = Fraction(1) if hi_t > lo_t else Fraction(0)
                else:
                    lo, hi = (min(float(v) for v in cov), max(float(v) for v in cov))
                    if kind == "interval":
                        lo, hi = parse_interval(label)  # type: ignore[misc]
                    span = max(min(hi, hi_t) - max(lo, lo_t), 0.0)
                    ncp = Fraction(span) / Fraction(hi_t - lo_t) if hi_t > lo_t else Fraction(0)
            else:
                ncp = Fraction(0) if kind == "leaf" else Fraction(len(cov), size)
            il += case.weights[i] * ncp
            lm += Fraction(len(cov) - 1, size - 1) if size > 1 else 0
            share_sum[i] += Fraction(len(cov), size)
            if label == "*":
                stars += 1
                row_star = True
        starred += row_star
        sa_null += r[4] is None
    lm += d * sa_null + 2 * d * deleted

    # the classes: by the group column and the labels where the release has one, else by the labels
    key = (lambda r: (r[6], *r[:4])) if case.with_group else (lambda r: r[:4])
    groups: dict[Any, list[tuple[Any, ...]]] = {}
    for r in rel:
        groups.setdefault(key(r), []).append(r)
    dm = sum(len(g) ** 2 for g in groups.values()) + deleted * n_src
    cm = sum(len(g) - max(Counter(x[5] for x in g).values()) for g in groups.values()) + deleted

    # KL: points of the source, each published row spreads 1/|T*| over its region
    sa_dom = sorted({r[4] for r in rows})
    f = Counter((*(str(v) for v in r[:4]), r[4]) for r in rows)
    kl: float | None = 0.0
    for x, cnt in f.items():
        fstar = 0.0
        for t in rel:
            covs = [cover(a, t[i], rows)[0] for i, a in enumerate(QI)]
            sa_cov = sa_dom if t[4] is None else [t[4]]
            if all(x[i] in covs[i] for i in range(d)) and x[4] in sa_cov:
                fstar += 1.0 / (n_pub * math.prod(len(c) for c in covs) * len(sa_cov))
        if fstar == 0.0:
            kl = None
            break
        p = cnt / n_src
        assert kl is not None
        kl += p * math.log(p / fstar)

    # ARX loss, gs = 0.5: per attribute (sum of shares + deleted - N/|A|) / (N - N/|A|), geometric mean
    top = max(case.weights)
    loss = 1.0
    for i, attr in enumerate(QI):
        size = len(domain(attr, rows))
        lo_, hi_ = Fraction(n_src, size), Fraction(n_src)
        v = max((share_sum[i] + deleted - lo_) / (hi_ - lo_), Fraction(0)) if size > 1 else Fraction(0)
        loss *= ((float(v) + 1) * float(case.weights[i] / top)) ** (1 / d)
    return {
        "il": il, "lm": lm, "dm": dm, "cm": cm, "stars": stars, "starred_rows": starred,
        "rows": n_pub, "deleted_rows": deleted, "classes": len(groups), "kl": kl, "arx_loss": loss - 1,
    }  # fmt: skip


# ---------------------------------------------------------------- random releases
def _cat_label(values: set[str], draw: Any) -> str:
    if len(values) == 1 and draw(st.booleans()):
        return next(iter(values))
    if values <= {"a", "b"} and draw(st.booleans()):
        return "ab"
    if values <= {"c", "d", "e"} and draw(st.booleans()):
        return "cde"
    return "*"


def _num_label(values: list[int], draw: Any) -> str:
    lo, hi = min(values), max(values)
    choice = draw(st.integers(0, 3))
    if choice == 0:
        return "*"
    if choice == 1 and lo == hi:
        return str(lo)
    widen = draw(st.integers(0, 2)) if choice == 3 else 0
    return f"{lo - widen}-{hi + widen}"


def _band_label(values: list[int], draw: Any) -> str:
    lo, hi = min(values), max(values)
    choice = draw(st.integers(0, 3))
    if choice == 0:
        return "*"
    if choice == 1 and lo == hi:
        return str(lo)
    if choice == 2 and (hi <= 2 or lo >= 3):
        return "0-2" if hi <= 2 else "3-5"
    return f"{lo}-{hi}"


@st.composite
def cases(draw: Any) -> Case:
    n = draw(st.integers(1, 10))
    rows = [
        (
            draw(st.sampled_from("abcd")),
            draw(st.integers(-3, 6)),
            draw(st.sampled_from("pqr")),
            draw(st.integers(0, 5)),
            draw(st.sampled_from(["s1", "s2", "s3"])),
            draw(st.sampled_from(["yes", "no"])),
        )
        for _ in range(n)
    ]
    kept = [i for i in range(n) if draw(st.integers(0, 5)) > 0] or [0]
    n_groups = draw(st.integers(1, len(kept)))
    group_of = {i: draw(st.integers(0, n_groups - 1)) for i in kept}
    labels: dict[int, tuple[str, str, str, str]] = {}
    for g in set(group_of.values()):
        members = [rows[i] for i in kept if group_of[i] == g]
        flat_vals = {m[2] for m in members}
        labels[g] = (
            _cat_label({m[0] for m in members}, draw),
            _num_label([m[1] for m in members], draw),
            next(iter(flat_vals)) if len(flat_vals) == 1 and draw(st.booleans()) else "*",
            _band_label([m[3] for m in members], draw),
        )
    release = [
        (*labels[group_of[i]], None if draw(st.integers(0, 6)) == 0 else rows[i][4], rows[i][5], group_of[i])
        for i in kept
    ]
    weights = [Fraction(draw(st.integers(1, 3))) for _ in QI]
    return Case(rows, release, draw(st.booleans()), weights)


@pytest.fixture(scope="module")
def db() -> Iterator[Database]:
    d = Database.open(":memory:")
    d.con.execute(
        "CREATE TABLE src (cat VARCHAR, num INTEGER, flat VARCHAR, band INTEGER, sa VARCHAR, cls VARCHAR)"
    )
    name = resolve_table(d, "src").name
    for attr, h in HIER.items():
        if h is not None:
            store_arx_rows(d, name, attr, h)
    yield d
    d.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_sql_matches_oracle(db: Database, case: Case) -> None:
    db.con.execute("DELETE FROM src")
    db.con.executemany("INSERT INTO src VALUES (?, ?, ?, ?, ?, ?)", [list(r) for r in case.rows])
    group_col = ", group_id BIGINT" if case.with_group else ""
    db.con.execute(
        "CREATE OR REPLACE TABLE rel (cat VARCHAR, num VARCHAR, flat VARCHAR, band VARCHAR, sa VARCHAR, cls VARCHAR"
        f"{group_col})"
    )
    width = 7 if case.with_group else 6
    db.con.executemany(
        f"INSERT INTO rel VALUES ({', '.join('?' * width)})", [list(r[:width]) for r in case.release]
    )
    source, release = resolve_table(db, "src"), resolve_table(db, "rel")
    m = compute_metrics(
        db,
        Measured(source, release, source.columns_of(QI), source.columns_of(["sa"]), class_column="cls"),
        MetricsOptions(weights=case.weights, l=2),
    )
    want = oracle(case)
    for key in ("il", "lm", "dm", "cm", "stars", "starred_rows", "rows", "deleted_rows", "classes"):
        assert getattr(m, key) == want[key], key
    assert m.arx_loss == pytest.approx(want["arx_loss"], rel=1e-9, abs=1e-12)
    if want["kl"] is None:
        assert m.kl is None and m.kl_note
    else:
        assert m.kl == pytest.approx(want["kl"], rel=1e-9, abs=1e-12)
    assert m.cavg == Fraction(m.rows, m.classes * 2)
