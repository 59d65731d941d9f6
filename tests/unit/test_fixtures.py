"""The committed fixtures: the synthetic census generator, the papers' example tables, and the
Adult amplifier of bench/ (run on a tiny in-memory table)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from fixtures import census
from fixtures.papers import (
    PAPERS_DIR,
    PaperTable,
    paper_tables,
    read_categories,
    read_hierarchy,
    read_table,
)

# ---------------------------------------------------------------------------------------------------
# helpers


def check_hierarchy(rows: list[list[str]], root: str | None = "*") -> dict[str, str]:
    """Assert ARX well-formedness; return child → parent over all levels."""
    assert rows, "empty hierarchy"
    height = len(rows[0])
    assert all(len(r) == height for r in rows), "ragged hierarchy"
    leaves = [r[0] for r in rows]
    assert len(set(leaves)) == len(leaves), "duplicate leaf"
    roots = {r[-1] for r in rows}
    assert len(roots) == 1, f"several roots {roots}"
    if root is not None:
        assert roots == {root}
    parent: dict[str, str] = {}
    for r in rows:
        for child, par in itertools.pairwise(r):
            assert parent.setdefault(child, par) == par, f"{child!r} has two parents"
    # a label never appears on two levels (it would be a value in two places)
    levels: dict[str, int] = {}
    for r in rows:
        for k, v in enumerate(r):
            assert levels.setdefault(v, k) == k, f"{v!r} is on two levels"
    return parent


def cut_count(rows: list[list[str]]) -> int:
    """#cuts of a taxonomy (SPEC §5.2): 1 for a leaf, else 1 + product over the children."""
    children: dict[str, list[str]] = {}
    for r in rows:
        for child, par in itertools.pairwise(r):
            if child not in children.setdefault(par, []):
                children[par].append(child)

    def cuts(v: str) -> int:
        kids = children.get(v)
        return 1 if not kids else 1 + math.prod(cuts(c) for c in kids)

    return cuts(rows[0][-1])


@pytest.fixture(scope="module")
def census_df() -> pd.DataFrame:
    return census.generate()


# ---------------------------------------------------------------------------------------------------
# census generator


def test_census_same_seed_same_frame() -> None:
    a = census.generate(3000, seed=11)
    b = census.generate(3000, seed=11)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(census.generate(3000, seed=12))


def test_census_write_is_byte_identical(tmp_path: Path, census_df: pd.DataFrame) -> None:
    p1 = census.write(tmp_path / "a")
    p2 = census.write(tmp_path / "b", df=census_df)
    assert set(p1) == {"data", *census.COLUMNS}
    for key in p1:
        assert p1[key].read_bytes() == p2[key].read_bytes(), key
    assert p1["data"].name == "census.csv"
    assert p1["age"].name == "census_hierarchy_age.csv"
    header, first = p1["data"].read_text(encoding="utf-8").splitlines()[:2]
    assert header == ";".join(census.COLUMNS)
    assert len(first.split(";")) == len(census.COLUMNS)
    back = pd.read_csv(p1["data"], sep=";", dtype=str, keep_default_na=False)
    back["age"] = back["age"].astype("int64")
    assert len(back) == census.DEFAULT_N
    pd.testing.assert_frame_equal(back, census_df, check_dtype=False)
    assert "\r" not in p1["data"].read_text(encoding="utf-8")


def test_census_columns_and_domains(census_df: pd.DataFrame) -> None:
    df = census_df
    assert list(df.columns) == list(census.COLUMNS)
    assert len(df) == 60_000
    assert df["age"].dtype == "int64"
    assert df["age"].min() >= 17 and df["age"].max() <= 90
    assert not df.isna().any().any()
    sizes = {
        "sex": 2,
        "race": 5,
        "marital_status": 7,
        "education": 16,
        "native_country": 20,
        "workclass": 7,
        "occupation": 14,
        "salary_class": 2,
    }
    for col, size in sizes.items():
        assert len(census.DOMAINS[col]) == size, col
        assert set(df[col]) == set(census.DOMAINS[col]), col
    assert set(census.QI) | {census.SA, census.CLASS} == set(census.COLUMNS)


def test_census_age_is_right_skewed(census_df: pd.DataFrame) -> None:
    age = census_df["age"]
    assert 33 <= age.mean() <= 42
    assert age.median() < age.mean()  # right skew
    assert (age < 30).mean() > (age >= 60).mean()


def test_census_occupation_share_allows_l_6_or_7(census_df: pd.DataFrame) -> None:
    counts = census_df[census.SA].value_counts()
    share = Fraction(int(counts.iloc[0]), len(census_df))
    assert Fraction(1, 8) <= share <= Fraction(1, 6)
    assert census.largest_feasible_l(list(counts)) in (6, 7)


def test_census_correlations(census_df: pd.DataFrame) -> None:
    df = census_df
    high = df["education"].isin(["Masters", "Prof-school", "Doctorate"])
    low = df["education"].isin(["9th", "10th", "11th", "HS-grad"])
    prof = df["occupation"] == "Prof-specialty"
    assert prof[high].mean() > 3 * prof[low].mean()
    rich = df["salary_class"] == ">50K"
    assert rich[high].mean() > 2 * rich[low].mean()
    assert 0.15 <= rich.mean() <= 0.30
    craft = df["occupation"] == "Craft-repair"
    male = df["sex"] == "Male"
    assert craft[male].mean() > 5 * craft[~male].mean()
    young = df["age"] < 23
    assert (df["marital_status"][young] == "Never-married").mean() > 0.8


def test_census_hierarchies_cover_data(census_df: pd.DataFrame) -> None:
    hier = census.hierarchies()
    assert set(hier) == set(census.COLUMNS)
    for col, rows in hier.items():
        check_hierarchy(rows)
        leaves = {r[0] for r in rows}
        values = {str(v) for v in census_df[col].unique()}
        assert values <= leaves, f"{col}: {sorted(values - leaves)} not in hierarchy"
    age = hier["age"]
    assert [r[0] for r in age] == [str(a) for a in range(100)]
    assert age[0] == ["0", "0-4", "0-9", "0-19", "*"]
    assert age[99] == ["99", "95-99", "90-99", "80-99", "*"]
    assert [r[0] for r in hier["education"]] == list(census.EDUCATION)


# ---------------------------------------------------------------------------------------------------
# paper tables

EXPECTED_ROWS = {
    "bsgi_table1": 7,
    "tp_example1": 8,
    "tp_example2_counts": 15,
    "tp_example3_counts": 15,
    "tp_example4": 16,
    "lalpha_table1": 12,
    "lalpha_table5": 12,
    "lalpha_table6": 12,
    "lalpha_table7": 12,
    "lalpha_table8": 4,
    "decomposition_table1": 8,
    "decomposition_table6": 8,
    "lplus_fig1": 10,
}


def test_paper_table_metadata() -> None:
    tables = paper_tables()
    assert set(tables) == set(EXPECTED_ROWS)
    for name, t in tables.items():
        assert t.name == name
        assert t.path.is_absolute() and t.path.is_file(), t.path
        assert t.path.parent == PAPERS_DIR
        assert t.rows == EXPECTED_ROWS[name]
        assert t.spec.startswith("SPEC §")
        for p in t.hierarchies.values():
            assert p.is_absolute() and p.is_file(), p
        if t.categories is not None:
            assert t.categories.is_file()
    # every CSV in fixtures/papers belongs to some table
    referenced = {t.path for t in tables.values()}
    for t in tables.values():
        referenced |= set(t.hierarchies.values())
        if t.categories is not None:
            referenced.add(t.categories)
    assert set(PAPERS_DIR.glob("*.csv")) == referenced


@pytest.mark.parametrize("name", sorted(EXPECTED_ROWS))
def test_paper_table_parses(name: str) -> None:
    t: PaperTable = paper_tables()[name]
    df = read_table(t)
    assert len(df) == EXPECTED_ROWS[name]
    for col in (*t.qi, *t.sa, *t.identifiers, *t.numeric):
        assert col in df.columns, col
    if t.kind == "counts":
        assert list(df.columns) == ["group", "value", "count"]
    else:
        assert df.columns[0] == "row_id"
        assert list(df["row_id"]) == list(range(1, len(df) + 1))
        assert set(df.columns) == {"row_id", *t.qi, *t.sa, *t.identifiers}
    for col in t.numeric:
        assert df[col].dtype == "int64"
    assert not (df == "").any().any()


@pytest.mark.parametrize("name", sorted(n for n, t in paper_tables().items() if t.hierarchies))
def test_paper_hierarchies_cover_data(name: str) -> None:
    t = paper_tables()[name]
    df = read_table(t)
    for col, path in t.hierarchies.items():
        rows = read_hierarchy(path)
        check_hierarchy(rows, root=None)
        leaves = {r[0] for r in rows}
        values = set(df[col].astype(str))
        assert values <= leaves, f"{name}.{col}: {sorted(values - leaves)} not in hierarchy"


def test_lalpha_categories() -> None:
    cats = read_categories(PAPERS_DIR / "lalpha_categories.csv")
    assert cats == {
        "HIV": 1,
        "Cancer": 1,
        "Phthisis": 2,
        "Hepatitis": 2,
        "Obesity": 3,
        "Asthma": 3,
        "Flu": 4,
        "Indigestion": 4,
    }
    for t in paper_tables().values():
        if t.categories is not None:
            assert set(read_table(t)["Disease"]) <= set(cats), t.name


def test_bsgi_table1_first_appearance_order() -> None:
    df = read_table("bsgi_table1")
    assert list(dict.fromkeys(df["Disease"])) == ["Cancer", "Obesity", "Flu"]
    assert df["Age"].max() - df["Age"].min() == 30
    assert df["Postcode"].tolist()[:2] == ["10075", "10075"]  # text, not numbers


def test_tp_count_vectors() -> None:
    def vectors(name: str) -> dict[str, tuple[int, ...]]:
        df = read_table(name)
        return {
            g: tuple(int(c) for c in part.sort_values("value", key=lambda s: s.astype(int))["count"])
            for g, part in df.groupby("group", sort=True)
        }

    e2 = vectors("tp_example2_counts")
    assert e2 == {"Q1": (3, 1, 1, 2, 3), "Q2": (1, 0, 1, 2, 2), "Q3": (3, 2, 0, 0, 0)}
    assert tuple(map(sum, zip(*e2.values(), strict=True))) == (7, 3, 2, 4, 5)
    e3 = vectors("tp_example3_counts")
    assert e3 == {"Q1": (2, 0, 2, 1, 1), "Q2": (1, 2, 0, 2, 1), "Q3": (3, 3, 0, 0, 0)}
    assert sum(map(sum, e3.values())) == 18


def test_tp_example_tables() -> None:
    e1 = read_table("tp_example1")
    assert e1.groupby(["Age", "Gender", "Education"], sort=False).ngroups == 5
    e4 = read_table("tp_example4")
    groups = e4.groupby(["Age", "Gender", "Education"], sort=False)["row_id"].apply(list)
    assert list(groups) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    assert Counter(e4["Disease"]) == {"flu": 8, "cold": 8}


def test_lalpha_published_views_groups() -> None:
    expected = {
        "lalpha_table5": [
            ["HIV", "HIV", "Cancer", "Cancer"],
            ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
            ["Flu", "Flu", "Flu", "Indigestion"],
        ],
        "lalpha_table6": [
            ["HIV", "HIV", "Cancer", "Flu"],
            ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
            ["Cancer", "Flu", "Flu", "Indigestion"],
        ],
        "lalpha_table7": [
            ["HIV", "HIV", "Flu", "Flu"],
            ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
            ["Cancer", "Cancer", "Flu", "Indigestion"],
        ],
    }
    for name, groups in expected.items():
        t = paper_tables()[name]
        df = read_table(t)
        got = df.groupby(list(t.qi), sort=False)["Disease"].apply(list).tolist()
        assert got == groups, name


def test_lalpha_table8_taxonomy() -> None:
    t = paper_tables()["lalpha_table8"]
    rows = read_hierarchy(t.hierarchies["Zipcode"])
    assert rows == [
        ["4351", "435*", "43**", "4***", "****"],
        ["4352", "435*", "43**", "4***", "****"],
    ]
    df = read_table(t)
    assert df[["Zipcode", "Disease"]].values.tolist() == [
        ["4351", "HIV"],
        ["4351", "Flu"],
        ["4351", "HIV"],
        ["4352", "Flu"],
    ]


def test_decomposition_table1() -> None:
    t = paper_tables()["decomposition_table1"]
    assert t.sa == ("Occupation", "Salary")
    df = read_table(t)
    assert list(dict.fromkeys(df["Occupation"])) == ["Nurse", "Police", "Cook", "Actor", "Clerk"]
    assert df["Salary"].tolist() == ["1", "4", "8", "9", "2", "7", "8", "2"]
    rows = read_hierarchy(t.hierarchies["Salary"])
    assert len(rows) == 9 and len(rows[0]) == 3  # height H = 2
    parent = check_hierarchy(rows)
    assert parent["7"] == parent["8"] == "7-9" and parent["4"] == "4-6"


def test_lplus_fig1_cut_count_and_facts() -> None:
    t = paper_tables()["lplus_fig1"]
    edu = read_hierarchy(t.hierarchies["Education"])
    country = read_hierarchy(t.hierarchies["Country"])
    assert cut_count(edu) == 5 and cut_count(country) == 5  # 25 cuts (SPEC §5.9)
    assert [r[0] for r in edu] == ["Jr", "Sr", "Ba", "Grad"]
    assert [r[0] for r in country] == ["UK", "France", "Canada", "USA"]
    df = read_table(t)
    assert Counter(df["Disease"]) == {"Cancer": 4, "Flu": 3, "Asthma": 3}
    uni = df[df["row_id"] >= 5]
    assert Counter(uni["Disease"]) == {"Asthma": 3, "Cancer": 2, "Flu": 1}  # Example 4
    grad_am = df[(df["Education"] == "Grad") & df["Country"].isin(["USA", "Canada"])]
    assert grad_am["row_id"].tolist() == [8, 9, 10]


# ---------------------------------------------------------------------------------------------------
# bench/amplify.py on a tiny table (the 1M-row run is measured by hand, see fixtures/README.md)


def test_amplify_small() -> None:
    duckdb = pytest.importorskip("duckdb")
    from bench.amplify import amplify

    src = census.generate(200, seed=3).rename(columns={"marital_status": "marital status"})
    qi = ["age", "sex", "race", "marital status", "education", "native_country", "workclass"]
    con = duckdb.connect()
    con.register("src_df", src)
    con.execute("CREATE TABLE src AS SELECT * FROM src_df")

    stats = amplify(con, "src", "big", n_rows=1000, seed=5, qi=qi)
    assert (stats.source_rows, stats.target_rows, stats.variants) == (200, 1000, 800)
    big = con.execute("SELECT * FROM big").df()
    assert len(big) == 1000 and list(big.columns) == list(src.columns)
    pd.testing.assert_frame_equal(big.iloc[:200].reset_index(drop=True), src, check_dtype=False)
    variants = big.iloc[200:].reset_index(drop=True)
    origin = src.iloc[[i % 200 for i in range(800)]].reset_index(drop=True)
    for col in ("occupation", "salary_class"):  # SA and class are kept
        assert (variants[col] == origin[col]).all()
    changed = (variants[qi] != origin[qi]).sum(axis=1)
    assert changed.max() <= len(qi) and changed.mean() > 1.5
    for col in qi:
        assert set(variants[col]) <= set(src[col]), col  # drawn from the column's domain

    amplify(con, "src", "big2", n_rows=1000, seed=5, qi=qi)
    amplify(con, "src", "big3", n_rows=1000, seed=6, qi=qi)
    pd.testing.assert_frame_equal(con.execute("SELECT * FROM big2").df(), big)
    assert not con.execute("SELECT * FROM big3").df().equals(big)
    with pytest.raises(ValueError, match="smaller than the source"):
        amplify(con, "src", "bad", n_rows=10, qi=qi)
    with pytest.raises(ValueError, match="not in"):
        amplify(con, "src", "bad", n_rows=1000, qi=["nope"])
