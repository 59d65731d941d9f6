"""Differential tests: ``ldiv_db.check`` (SQL on DuckDB) against the independent oracle
``tests.reference.evaluator.reference_check`` (pure Python, exact fractions).

Random small tables (1–3 QI columns, 1–2 SA columns, sometimes a group column, 1–60 rows, sometimes NULLs
with ``null_as_value``, sometimes hostile identifiers) are created with duckdb directly; the oracle sees
the same rows as Python dicts (it never reads them back from DuckDB).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from tests.reference.evaluator import reference_check

check_module = pytest.importorskip("ldiv_db.verify.check")
sql_check = check_module.check

try:
    from ldiv_db.errors import BadInput
except ImportError:  # pragma: no cover
    BadInput = Exception  # type: ignore[misc,assignment]

# ~60 ms per ldiv_db.check call: 10 model tests × 40 examples + 30 keep the file well under a minute
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

STAT_KEYS = ("groups", "rows", "k", "distinct_l", "frequency_l_exact", "recursive")
PER_SA_KEYS = ("distinct_l", "frequency_l_exact", "recursive")
MODEL_KEYS = ("model", "satisfied", "violating_groups", "violating_rows")

PLAIN_QI = ["q1", "q2", "q3"]
PLAIN_SA = ["s1", "s2"]
# Hostile identifiers: quotes, spaces, keywords, non-ASCII, dots, dashes. DuckDB folds case, so no two
# names differ only by case. No commas: string arguments are comma-separated lists.
HOSTILE = ["it's", "Zip Code", "select", "ünï", 'say "hi"', "a.b", "marital-status", "from", "1st"]
HOSTILE_TABLES = ["my table", "it's", "select", "Ünï tåble"]

QI_DOMAINS: dict[str, list[Any]] = {"INTEGER": [0, 1, 2], "VARCHAR": ["x", "y'", "Zé"]}
SA_DOMAINS: dict[str, list[Any]] = {
    "VARCHAR": ["flu", "HIV", "it's", "Ünï", "a b", "", "None", "1"],
    "INTEGER": [0, 1, 2, 3, -7, 10],
}
DECIMALS = [0, 0.1, 0.25, "1/3", 0.5, 0.57, "2/3", 0.75, 0.9, 1]


def q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass
class Case:
    table: str
    columns: list[tuple[str, str]]
    rows: list[dict[str, Any]]
    qi: list[str]
    sa: list[str]
    group: str | None
    null_as_value: bool
    sa_domain: dict[str, list[Any]]

    def sa_arg(self) -> str | list[str]:
        return self.sa[0] if len(self.sa) == 1 else list(self.sa)

    def load(self, con: duckdb.DuckDBPyConnection) -> None:
        """(Re)create the table in ``con`` with one INSERT (executemany is slow in duckdb)."""
        cols = ", ".join(f"{q(n)} {t}" for n, t in self.columns)
        con.execute(f"CREATE OR REPLACE TABLE {q(self.table)} ({cols})")
        names = [n for n, _ in self.columns]
        row = "(" + ", ".join("?" for _ in names) + ")"
        values = ", ".join(row for _ in self.rows)
        con.execute(f"INSERT INTO {q(self.table)} VALUES {values}", [r[n] for r in self.rows for n in names])

    def connect(self) -> duckdb.DuckDBPyConnection:
        con = duckdb.connect()
        self.load(con)
        return con


_SHARED: list[duckdb.DuckDBPyConnection] = []


def shared_connection() -> duckdb.DuckDBPyConnection:
    """One in-memory database for all examples (a fresh one per example costs ~50 ms)."""
    if not _SHARED:
        con = duckdb.connect()
        con.execute("SET threads = 1")  # tiny tables: threads only add overhead
        _SHARED.append(con)
    return _SHARED[0]


@st.composite
def cases(draw: st.DrawFn, *, max_sa: int = 2, min_sa_domain: int = 1, sa_nulls: bool = True) -> Case:
    hostile = draw(st.booleans())
    n_qi = draw(st.integers(1, 3))
    n_sa = draw(st.integers(1, max_sa))
    use_group = draw(st.integers(0, 3)) == 0
    if hostile:
        pool = draw(st.permutations(HOSTILE))
        qi, sa = list(pool[:n_qi]), list(pool[n_qi : n_qi + n_sa])
        group = pool[n_qi + n_sa] if use_group else None
        table = draw(st.sampled_from(HOSTILE_TABLES))
    else:
        qi, sa = PLAIN_QI[:n_qi], PLAIN_SA[:n_sa]
        group = "g" if use_group else None
        table = "t"
    null_as_value = draw(st.booleans())
    nulls = null_as_value and draw(st.booleans())

    columns: list[tuple[str, str]] = []
    domains: dict[str, list[Any]] = {}
    for name in qi:
        typ = draw(st.sampled_from(sorted(QI_DOMAINS)))
        size = draw(st.integers(1, 3))
        columns.append((name, typ))
        domains[name] = QI_DOMAINS[typ][:size] + ([None] if nulls and draw(st.booleans()) else [])
    sa_domain: dict[str, list[Any]] = {}
    for name in sa:
        typ = draw(st.sampled_from(sorted(SA_DOMAINS)))
        pool = SA_DOMAINS[typ]
        size = draw(st.integers(min_sa_domain, 5))
        values = draw(st.permutations(pool))[:size]
        columns.append((name, typ))
        sa_domain[name] = list(values)
        domains[name] = list(values) + ([None] if nulls and sa_nulls and draw(st.booleans()) else [])
    if group is not None:
        columns.append((group, "INTEGER"))
        domains[group] = [0, 1, 2, 3] + ([None] if nulls and draw(st.booleans()) else [])
    n_rows = draw(st.integers(1, 60))
    names = [n for n, _ in columns]
    rows = [{n: draw(st.sampled_from(domains[n])) for n in names} for _ in range(n_rows)]
    return Case(table, columns, rows, qi, sa, group, null_as_value, sa_domain)


def _ls(draw: st.DrawFn, case: Case) -> int | list[int]:
    ls = [draw(st.integers(2, 4)) for _ in case.sa]
    return ls[0] if len(ls) == 1 else ls


def _show(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("worst", "seconds", "queries", "keys", "table", "sa")}


def _same_stats(got: dict[str, Any], exp: dict[str, Any], keys: tuple[str, ...], where: str) -> list[str]:
    bad = [
        f"{where}{key}: sql={got.get(key)!r} ref={exp.get(key)!r}"
        for key in keys
        if got.get(key) != exp.get(key)
    ]
    ge, ee = got.get("entropy_l"), exp.get("entropy_l")
    if (ge is None) != (ee is None) or (ge is not None and not math.isclose(ge, ee, rel_tol=1e-9)):
        bad.append(f"{where}entropy_l: sql={ge!r} ref={ee!r}")
    gf, ef = got.get("frequency_l"), exp.get("frequency_l")
    if (gf is None) != (ef is None) or (gf is not None and not math.isclose(gf, ef, rel_tol=1e-12)):
        bad.append(f"{where}frequency_l: sql={gf!r} ref={ef!r}")
    return bad


def _note(text: str) -> None:
    """Print with the falsifying example inside hypothesis; nothing outside it."""
    with contextlib.suppress(InvalidArgument):
        note(text)


def run_both(case: Case, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    _note(f"table={case.table!r} columns={case.columns!r}")
    _note(f"rows={case.rows!r}")
    _note(f"qi={case.qi!r} sa={case.sa_arg()!r} group_column={case.group!r}")
    _note(f"null_as_value={case.null_as_value}")
    _note(f"kwargs={kwargs!r}")
    expected = reference_check(
        case.rows, case.qi, case.sa_arg(), group_column=case.group, null_as_value=case.null_as_value, **kwargs
    )
    con = shared_connection()
    case.load(con)
    try:
        got = sql_check(
            con,
            case.table,
            case.qi,
            case.sa_arg(),
            group_column=case.group,
            null_as_value=case.null_as_value,
            **kwargs,
        ).to_dict()
    finally:
        con.execute(f"DROP TABLE IF EXISTS {q(case.table)}")
    return got, expected


def assert_agree(got: dict[str, Any], expected: dict[str, Any]) -> None:
    # check's JSON names its groups classes (ldiv_db/core/classes.py); the reference evaluator, groups
    got = {**got, "groups": got.get("classes"), "violating_groups": got.get("violating_classes")}
    bad = _same_stats(got, expected, STAT_KEYS + (MODEL_KEYS if "model" in expected else ()), "")
    if "per_sa" in expected or "per_sa" in got:
        gp, ep = got.get("per_sa") or {}, expected.get("per_sa") or {}
        if set(gp) != set(ep):
            bad.append(f"per_sa names: sql={sorted(gp)!r} ref={sorted(ep)!r}")
        for name in sorted(set(gp) & set(ep)):
            # every key the SQL side reports per SA must agree; the core statistics must be there
            keys = tuple(k for k in ep[name] if k in gp[name] and k not in ("entropy_l", "frequency_l"))
            missing = [k for k in PER_SA_KEYS if k not in gp[name]]
            if missing:
                bad.append(f"per_sa[{name!r}] lacks {missing}")
            bad += _same_stats(gp[name], ep[name], keys, f"per_sa[{name!r}].")
    assert not bad, "\n".join(bad) + f"\nSQL: {_show(got)!r}\nREF: {_show(expected)!r}"


def check_case(case: Case, **kwargs: Any) -> None:
    got, expected = run_both(case, **kwargs)
    assert_agree(got, expected)


# ------------------------------------------------------------------------------------------------ statistics
@settings(SETTINGS, max_examples=30)
@given(case=cases())
def test_statistics_only(case: Case) -> None:
    check_case(case)


# ------------------------------------------------------------------------------------------------ models
@SETTINGS
@given(case=cases(), k=st.integers(1, 6))
def test_k_anonymity(case: Case, k: int) -> None:
    check_case(case, model="k-anonymity", k=k)


@pytest.mark.parametrize("model", ["distinct", "entropy", "frequency", "unique-distinct"])
@SETTINGS
@given(data=st.data())
def test_l_models(model: str, data: st.DataObject) -> None:
    case = data.draw(cases())
    check_case(case, model=model, l=_ls(data.draw, case))


C_VALUES = [0.5, 1, 1.5, 2, "2.5", 3, "10/3", 4.25, 7]


@SETTINGS
@given(data=st.data())
def test_recursive(data: st.DataObject) -> None:
    case = data.draw(cases())
    check_case(case, model="recursive", l=_ls(data.draw, case), c=data.draw(st.sampled_from(C_VALUES)))


@SETTINGS
@given(data=st.data())
def test_lplus(data: st.DataObject) -> None:
    case = data.draw(cases())
    single = len(case.sa) == 1
    mode = data.draw(st.sampled_from(["uniform", "sensitivity"] + (["map", "map+l"] if single else [])))
    kwargs: dict[str, Any] = {"model": "lplus"}
    if mode != "map":
        kwargs["l"] = _ls(data.draw, case)
    if mode == "sensitivity":
        kwargs["sensitivity"] = True
    if mode.startswith("map"):
        domain = case.sa_domain[case.sa[0]]
        keys = data.draw(st.lists(st.sampled_from(domain), min_size=1, unique=True))
        kwargs["thresholds"] = {v: data.draw(st.sampled_from(DECIMALS)) for v in keys}
    check_case(case, **kwargs)


ALPHAS = [0, 0.5, 1, "4/3", 2, 2.5, 3, 5]
WEIGHT_VALUES = [0, 0.1, 0.25, "9/61", 0.5, "2/3", 1]


@pytest.mark.parametrize("model", ["distinct-alpha", "entropy-alpha", "recursive-alpha"])
@SETTINGS
@given(data=st.data())
def test_alpha_models(model: str, data: st.DataObject) -> None:
    # the (l,α) models take one SA; its categories cover the SA domain (ranks 1..K without gaps)
    case = data.draw(cases(max_sa=1, min_sa_domain=2, sa_nulls=False))
    domain = case.sa_domain[case.sa[0]]
    K = data.draw(st.integers(2, min(4, len(domain))))
    ranks = list(range(1, K + 1)) + [data.draw(st.integers(1, K)) for _ in range(len(domain) - K)]
    ranks = data.draw(st.permutations(ranks))
    kwargs: dict[str, Any] = {
        "model": model,
        "l": data.draw(st.integers(2, 4)),
        "alpha": data.draw(st.sampled_from(ALPHAS)),
        "categories": dict(zip(domain, ranks, strict=True)),
    }
    scheme = data.draw(st.sampled_from(["default", "uniform", "sensitivity", "explicit"]))
    if scheme == "sensitivity":
        kwargs["weights"] = "sensitivity"
        kwargs["beta"] = data.draw(st.integers(1, 3))
    elif scheme == "explicit":
        kwargs["weights"] = {r: data.draw(st.sampled_from(WEIGHT_VALUES)) for r in range(1, K + 1)}
    elif scheme == "uniform":
        kwargs["weights"] = "uniform"
    if model == "entropy-alpha":
        kwargs["entropy_over"] = data.draw(st.sampled_from(["categories", "values"]))
    if model == "recursive-alpha":
        kwargs["c"] = data.draw(st.sampled_from(C_VALUES))
    check_case(case, **kwargs)


# ------------------------------------------------------------------------------------------------ fixed cases
def _fixed(rows: list[dict[str, Any]], qi: list[str], sa: list[str], *, null_as_value: bool = False) -> Case:
    names = list(rows[0])
    types = ["INTEGER" if isinstance(rows[0][n], int) else "VARCHAR" for n in names]
    dom = {s: sorted({r[s] for r in rows if r[s] is not None}) for s in sa}
    return Case("t", list(zip(names, types, strict=True)), rows, qi, sa, None, null_as_value, dom)


def test_hostile_names_fixed() -> None:
    rows = [
        {"it's": 1, "Zip Code": "4351", "select": "HIV", "ünï": "a"},
        {"it's": 1, "Zip Code": "4351", "select": "Flu", "ünï": "b"},
        {"it's": 1, "Zip Code": "4352", "select": "HIV", "ünï": "a"},
        {"it's": 1, "Zip Code": "4352", "select": "HIV", "ünï": "b"},
    ]
    case = _fixed(rows, ["it's", "Zip Code"], ["select", "ünï"])
    check_case(case, model="distinct", l=[2, 2])
    check_case(case, model="recursive", l=[2, 2], c=3)
    got, _ = run_both(case, model="distinct", l=[2, 2])
    assert got["violating_classes"] == 1 and got["violating_rows"] == 2


def test_nulls_are_rejected_without_null_as_value() -> None:
    rows = [{"q1": None, "s1": "a"}, {"q1": 1, "s1": "b"}]
    case = _fixed(rows, ["q1"], ["s1"])
    con = case.connect()
    try:
        with pytest.raises(BadInput):
            sql_check(con, "t", ["q1"], "s1")
    finally:
        con.close()


def test_null_qi_groups_together() -> None:
    rows = [{"q1": None, "s1": "a"}, {"q1": None, "s1": "b"}, {"q1": 1, "s1": "a"}, {"q1": 1, "s1": None}]
    case = _fixed(rows, ["q1"], ["s1"], null_as_value=True)
    got, expected = run_both(case, model="distinct", l=2)
    assert_agree(got, expected)
    assert got["classes"] == 2 and got["satisfied"]


@pytest.mark.parametrize("marker", ["<NULL>", "None", "NULL", ""])
def test_null_and_a_string_that_looks_like_null_are_different_values(marker: str) -> None:
    # with null_as_value, SQL NULL is a value of its own: a real string must not merge with it
    rows = [{"q1": 1, "s1": marker}, {"q1": 1, "s1": None}]
    case = _fixed(rows, ["q1"], ["s1"], null_as_value=True)
    check_case(case, model="distinct", l=2)


def test_null_threshold_is_not_the_string_none() -> None:
    # thresholds={None: θ} is about the NULL value; the string 'None' keeps the default θ (1: no l given)
    rows = [{"q1": 1, "s1": "None"}, {"q1": 1, "s1": None}, {"q1": 1, "s1": None}]
    case = _fixed(rows, ["q1"], ["s1"], null_as_value=True)
    check_case(case, model="lplus", thresholds={None: 0.5})  # NULL: 2 > ½·3 → violated
    check_case(case, model="lplus", thresholds={None: 0.7})  # NULL: 2 ≤ 0.7·3 → satisfied


def _bool_case() -> Case:
    rows = [{"q1": 1, "s1": True}, {"q1": 1, "s1": True}, {"q1": 1, "s1": False}]
    return Case(
        "t", [("q1", "INTEGER"), ("s1", "BOOLEAN")], rows, ["q1"], ["s1"], None, False, {"s1": [False, True]}
    )


def test_boolean_sa_thresholds_keyed_by_python_bools() -> None:
    check_case(_bool_case(), model="lplus", thresholds={True: 0.5})  # true: 2 > ½·3 → violated


def test_boolean_sa_categories_keyed_by_python_bools() -> None:
    check_case(_bool_case(), model="distinct-alpha", l=2, alpha=1, categories={True: 1, False: 2})


# ------------------------------------------------------------------------------------------- Adult (slow)
DATASETS = Path(__file__).parents[2].parent / "shared" / "datasets"
ADULT = DATASETS / "adult" / "adult.csv"
ADULT_QI = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "salary-class",
]
ADULT_QI_SMALL = ["sex", "race", "salary-class"]
OCCUPATION_CATEGORIES = {
    "Armed-Forces": 1,
    "Protective-serv": 1,
    "Priv-house-serv": 1,
    "Handlers-cleaners": 2,
    "Farming-fishing": 2,
    "Other-service": 2,
    "Machine-op-inspct": 2,
    "Transport-moving": 3,
    "Craft-repair": 3,
    "Tech-support": 3,
    "Adm-clerical": 3,
    "Prof-specialty": 4,
    "Exec-managerial": 4,
    "Sales": 4,
}
ADULT_MODELS: list[tuple[str, dict[str, Any]]] = [
    ("none", {}),
    ("k5", {"model": "k-anonymity", "k": 5}),
    ("distinct3", {"model": "distinct", "l": 3}),
    ("entropy3", {"model": "entropy", "l": 3}),
    ("recursive-c4-l3", {"model": "recursive", "l": 3, "c": 4}),
    ("frequency3", {"model": "frequency", "l": 3}),
    ("unique-distinct2", {"model": "unique-distinct", "l": 2}),
    ("lplus3", {"model": "lplus", "l": 3}),
    ("lplus-sensitivity4", {"model": "lplus", "l": 4, "sensitivity": True}),
    ("lplus-map", {"model": "lplus", "l": 4, "thresholds": {"Armed-Forces": 0.1, "Prof-specialty": 0.5}}),
    ("distinct-alpha", {"model": "distinct-alpha", "l": 2, "alpha": 1, "categories": OCCUPATION_CATEGORIES}),
    (
        "entropy-alpha-cat",
        {"model": "entropy-alpha", "l": 2, "alpha": 1, "categories": OCCUPATION_CATEGORIES},
    ),
    (
        "entropy-alpha-val-sens",
        {
            "model": "entropy-alpha",
            "l": 3,
            "alpha": "3/2",
            "categories": OCCUPATION_CATEGORIES,
            "weights": "sensitivity",
            "beta": 2,
            "entropy_over": "values",
        },
    ),
    (
        "recursive-alpha",
        {
            "model": "recursive-alpha",
            "l": 2,
            "c": 3,
            "alpha": 0.5,
            "categories": OCCUPATION_CATEGORIES,
            "weights": {1: 0, 2: "9/61", 3: "45/61", 4: 1},
        },
    ),
]


@pytest.fixture(scope="module")
def adult() -> Iterator[tuple[duckdb.DuckDBPyConnection, list[dict[str, Any]]]]:
    if not ADULT.exists():
        pytest.skip(f"{ADULT} not found")
    import pandas as pd

    rows = pd.read_csv(ADULT, sep=";", dtype=str, keep_default_na=False).to_dict("records")
    con = duckdb.connect()
    con.execute("CREATE TABLE adult AS SELECT * FROM read_csv(?, delim=';', header=true)", [str(ADULT)])
    yield con, rows
    con.close()


@pytest.mark.slow
@pytest.mark.parametrize("qi", [ADULT_QI, ADULT_QI_SMALL], ids=["all-qi", "sex-race-salary"])
@pytest.mark.parametrize(("name", "kwargs"), ADULT_MODELS, ids=[m[0] for m in ADULT_MODELS])
def test_adult(
    adult: tuple[duckdb.DuckDBPyConnection, list[dict[str, Any]]],
    qi: list[str],
    name: str,
    kwargs: dict[str, Any],
) -> None:
    con, rows = adult
    expected = reference_check(rows, qi, "occupation", **kwargs)
    got = sql_check(con, "adult", qi, "occupation", **kwargs).to_dict()
    assert_agree(got, expected)
    assert got["rows"] == 30162
