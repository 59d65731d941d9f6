"""The pure-Python hierarchy model (SPEC §0.4), the ARX parser's validation, and the interval builder."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from pathlib import Path

import pytest

from ldiv_db.errors import HierarchyError
from ldiv_db.taxonomy import Hierarchy, build_intervals, parse_arx
from ldiv_db.taxonomy.rows import _fast_tree, _tree_from_rows

# SPEC §5.9: AnyEdu -> {Sec -> {Jr, Sr}, Uni -> {Ba, Grad}}
EDUCATION = "Jr;Sec;AnyEdu\nSr;Sec;AnyEdu\nBa;Uni;AnyEdu\nGrad;Uni;AnyEdu\n"
COUNTRY = "UK;Eu;AnyCountry\nFrance;Eu;AnyCountry\nCanada;Am;AnyCountry\nUSA;Am;AnyCountry\n"


@pytest.fixture
def edu() -> Hierarchy:
    return parse_arx(EDUCATION)


# ---------------------------------------------------------------------------------------------- model


def test_education_structure(edu: Hierarchy) -> None:
    assert edu.root == "AnyEdu"
    assert edu.labels == ("AnyEdu", "Sec", "Jr", "Sr", "Uni", "Ba", "Grad")  # preorder, left to right
    assert [edu.node_id(v) for v in ("AnyEdu", "Sec", "Jr", "Grad")] == [0, 1, 2, 6]
    assert edu.children("AnyEdu") == ("Sec", "Uni")
    assert edu.children("Uni") == ("Ba", "Grad")
    assert edu.children("Jr") == ()
    assert edu.parent("Ba") == "Uni" and edu.parent("AnyEdu") is None
    assert edu.ancestors("Grad") == ("Grad", "Uni", "AnyEdu")
    assert [edu.depth(v) for v in ("AnyEdu", "Sec", "Jr")] == [0, 1, 2]
    assert [edu.height(v) for v in ("AnyEdu", "Sec", "Jr")] == [2, 1, 0]
    assert [edu.n_leaves(v) for v in ("AnyEdu", "Sec", "Jr")] == [4, 2, 1]
    assert edu.leaves() == ("Jr", "Sr", "Ba", "Grad")
    assert edu.leaves("Uni") == ("Ba", "Grad")
    assert edu.is_leaf("Sr") and not edu.is_leaf("Sec")
    assert edu.span("Sec") == (1, 3) and edu.span("AnyEdu") == (0, 6) and edu.span("Ba") == (5, 5)
    assert edu.levels == 3 and edu.domain_size == 4 and len(edu) == 7
    assert "Ba" in edu and "PhD" not in edu
    assert edu.parent_ids == (-1, 0, 1, 1, 0, 4, 4)


def test_education_lca(edu: Hierarchy) -> None:
    assert edu.lca("Jr", "Sr") == "Sec"
    assert edu.lca("Jr", "Grad") == "AnyEdu"
    assert edu.lca("Ba", "Ba") == "Ba"
    assert edu.lca("Uni", "Grad") == "Uni"
    assert edu.lca("Sec", "Uni") == "AnyEdu"
    assert edu.lca_many(["Ba"]) == "Ba"
    assert edu.lca_many(["Ba", "Grad"]) == "Uni"
    assert edu.lca_many(iter(["Sr", "Jr", "Sec"])) == "Sec"
    assert edu.lca_many(["Jr", "Ba", "Grad"]) == "AnyEdu"
    with pytest.raises(ValueError, match="at least one"):
        edu.lca_many([])
    with pytest.raises(KeyError, match="'PhD' is not a node"):
        edu.lca("PhD", "Ba")


def test_n_cuts_spec_5_9(edu: Hierarchy) -> None:
    """Each Fig. 1 taxonomy has 5 cuts, 25 together (SPEC §5.9, Example 2)."""
    country = parse_arx(COUNTRY)
    assert edu.n_cuts() == 5 and country.n_cuts() == 5
    assert edu.n_cuts() * country.n_cuts() == 25
    assert edu.n_cuts("Sec") == 2 and edu.n_cuts("Jr") == 1


def test_level_label(edu: Hierarchy) -> None:
    assert [edu.level_label("Grad", k) for k in range(3)] == ["Grad", "Uni", "AnyEdu"]
    with pytest.raises(ValueError, match=r"levels 0\.\.2"):
        edu.level_label("Grad", 3)
    with pytest.raises(KeyError, match="not a leaf"):
        edu.level_label("Uni", 0)


def test_rows_round_trip(edu: Hierarchy) -> None:
    assert edu.rows() == [tuple(line.split(";")) for line in EDUCATION.splitlines()]
    assert Hierarchy(edu.rows()) == edu
    assert hash(Hierarchy(edu.rows())) == hash(edu)
    assert edu != parse_arx(COUNTRY)


def test_numeric_ranges() -> None:
    h = parse_arx("1;0-4;*\n3;0-4;*\n7;5-9;*\n-2.5;neg;*")
    assert h.is_numeric
    assert h.range("0-4") == (1.0, 3.0)
    assert h.range("*") == (-2.5, 7.0)
    assert h.range("7") == (7.0, 7.0)
    assert not parse_arx(EDUCATION).is_numeric
    assert parse_arx(EDUCATION).range("Sec") is None
    assert parse_arx("1;*\nnan;*").range("*") is None  # 'nan' is a label, not a number


def test_children_order_is_first_appearance() -> None:
    h = parse_arx("b1;B;*\na1;A;*\nb2;B;*\na2;A;*\nc;C;*")
    assert h.children("*") == ("B", "A", "C")
    assert h.children("B") == ("b1", "b2")
    assert h.leaves() == ("b1", "b2", "a1", "a2", "c")


def _reference(rows: list[list[str]]) -> tuple[list[str], list[int]]:
    """Preorder labels and parent ids, the obvious recursive way."""
    children: dict[str, list[str]] = {}
    parent: dict[str, str] = {}
    for row in rows:
        chain = [k for k, _ in itertools.groupby(row)]
        for c, p in itertools.pairwise(chain):
            if c not in parent:
                parent[c] = p
                children.setdefault(p, []).append(c)
    labels: list[str] = []
    parents: list[int] = []

    def visit(v: str, p: int) -> None:
        me = len(labels)
        labels.append(v)
        parents.append(p)
        for c in children.get(v, []):
            visit(c, me)

    visit(rows[0][-1], -1)
    return labels, parents


def _random_rows(rng: random.Random) -> list[list[str]]:
    """A random tree as ARX rows; some leaves sit one level higher (``x;x;...``) when repeats are on."""
    width = rng.randint(2, 5)
    parent: dict[str, str] = {}
    level = ["*"]
    for lev in range(width - 2, 0, -1):  # inner levels, top down
        groups = []
        for p in level:
            for _ in range(rng.randint(1, 3)):
                g = f"g{lev}.{len(groups)}"
                groups.append(g)
                parent[g] = p
        level = groups
    repeats = rng.random() < 0.5 and width > 2
    rows = []
    for g in level:
        for _ in range(rng.randint(1, 3)):
            leaf = f"L{len(rows)}"
            path = [leaf, g]
            while path[-1] != "*":
                path.append(parent.get(path[-1], "*"))
            if repeats and rng.random() < 0.3:
                path[1] = leaf  # the leaf hangs one level higher, ARX-style
            rows.append(path)
    rng.shuffle(rows)
    return rows


@pytest.mark.parametrize("seed", range(30))
def test_random_trees_match_reference(seed: int) -> None:
    """Random shuffled ARX rows: the builder (vectorized or row by row) agrees with a recursive reference,
    and the derived quantities agree with brute force."""
    rows = _random_rows(random.Random(seed))
    h = Hierarchy(rows)
    labels, parents = _reference(rows)
    assert list(h.labels) == labels
    assert list(h.parent_ids) == parents
    assert sorted(h.rows()) == sorted(tuple(r) for r in rows)
    for row in rows:
        assert [h.level_label(row[0], k) for k in range(len(row))] == row
    for v in h.labels:
        under = [x for x in h.labels if v in h.ancestors(x)]
        assert h.n_leaves(v) == sum(1 for x in under if h.is_leaf(x))
        assert h.span(v) == (h.node_id(v), h.node_id(v) + len(under) - 1)
        assert h.height(v) == max(len(h.ancestors(x)) for x in under) - len(h.ancestors(v))
        assert h.depth(v) == len(h.ancestors(v)) - 1
    for a, b in itertools.islice(itertools.combinations(h.labels, 2), 200):
        common = [x for x in h.ancestors(a) if x in h.ancestors(b)]
        assert h.lca(a, b) == common[0]
    assert Hierarchy(h.rows()) == h
    # the vectorized builder, when it applies, agrees with the row-by-row one
    fast = _fast_tree(list(zip(*rows, strict=True)))
    repeats = any(a == b for row in rows for a, b in itertools.pairwise(row))
    assert (fast is None) == repeats
    assert fast is None or fast == _tree_from_rows(rows)


# ---------------------------------------------------------------------------------------------- parsing


def test_parse_tolerates_crlf_and_final_blank_line(tmp_path: Path) -> None:
    text = EDUCATION.replace("\n", "\r\n") + "\r\n"
    assert parse_arx(text) == parse_arx(EDUCATION)
    f = tmp_path / "edu.csv"
    f.write_bytes(text.encode())
    assert parse_arx(f) == parse_arx(EDUCATION)
    assert parse_arx(str(f)) == parse_arx(EDUCATION)
    assert parse_arx(EDUCATION.rstrip("\n")) == parse_arx(EDUCATION)


def test_parse_keeps_whitespace_and_other_separators() -> None:
    h = parse_arx(" a |A| *\nb|A| *", sep="|")
    assert h.leaves() == (" a ", "b")
    assert h.root == " *"
    assert h.parent(" a ") == "A"


def test_parse_missing_file() -> None:
    with pytest.raises(HierarchyError, match="does not exist"):
        parse_arx("/no/such/hierarchy.csv")
    with pytest.raises(HierarchyError, match="does not exist"):
        parse_arx(Path("/no/such/hierarchy.csv"))


def _error(text: str) -> str:
    with pytest.raises(HierarchyError) as info:
        parse_arx(text)
    return str(info.value)


def test_error_leaf_twice() -> None:
    msg = _error("a;A;*\nb;A;*\na;B;*\nc;B;*\na;B;*")
    assert "leaf 'a' is listed 3 times, on lines 1, 3, 5" in msg
    assert "keep exactly one row per leaf" in msg


def test_error_two_parents() -> None:
    msg = _error("a;A;X;*\nb;A;Y;*")
    assert "node 'A' has two parents: 'X' (line 1) and 'Y' (line 2)" in msg
    assert "different labels" in msg


def test_error_several_roots() -> None:
    msg = _error("a;A;*\nb;B;Any\nc;C;*\nd;D;Top")
    assert "3 roots: '*' (first on line 1), 'Any' (first on line 2), 'Top' (first on line 4)" in msg
    assert "same root label" in msg


def test_error_ragged_rows() -> None:
    msg = _error("a;A;*\nb;A;*\nc;*")
    assert "line 3 has 2 columns, but line 1 has 3" in msg
    assert "one label per level" in msg


def test_error_empty_label() -> None:
    assert "line 2 has an empty label in column 2" in _error("a;A;*\nb;;*")
    assert "line 1 has an empty label in column 1" in _error(";A;*\nb;A;*")
    assert "line 2 is empty" in _error("a;A;*\n\nb;A;*")
    assert "no rows" in _error("")
    assert "no rows" in _error("\n")


def test_error_label_loop() -> None:
    msg = _error("a;A;a;*")
    assert "line 1 has label 'a' in columns 1 and 3" in msg
    assert "its own ancestor" in msg


def test_error_leaf_that_is_also_a_group() -> None:
    """ARX's atus Birthplace has 'Australia;Australia;*' next to 'Fiji;Australia;*'."""
    msg = _error("Fiji;Australia;*\nAustralia;Australia;*\nUK;Europe;*")
    assert "label 'Australia' is a leaf (line 2) and also the generalization of 'Fiji' (line 1)" in msg
    assert "Australia (group)" in msg


def test_repeated_label_is_one_node() -> None:
    """ARX keeps a value unchanged for a level (a;a;*): one node, no self-parent, both levels answer."""
    h = parse_arx("a;a;*\nb;B;*\nc;B;*")
    assert h.labels == ("*", "a", "B", "b", "c")
    assert h.parent("a") == "*"
    assert h.is_leaf("a") and h.depth("a") == 1
    assert h.levels == 3 and h.domain_size == 3 and h.height("*") == 2
    assert [h.level_label("a", k) for k in range(3)] == ["a", "a", "*"]
    assert [h.level_label("b", k) for k in range(3)] == ["b", "B", "*"]
    assert h.rows() == [("a", "a", "*"), ("b", "B", "*"), ("c", "B", "*")]
    assert h.n_cuts() == 1 + 1 * 2


def test_repeated_inner_label_is_one_node() -> None:
    h = parse_arx("21;74;74;74;75\n22;70;74;74;75\n23;70;74;74;75")  # adult_int age style
    assert h.parent("74") == "75" and h.parent("70") == "74" and h.parent("21") == "74"
    assert [h.level_label("21", k) for k in range(5)] == ["21", "74", "74", "74", "75"]
    assert [h.level_label("22", k) for k in range(5)] == ["22", "70", "74", "74", "75"]


# ---------------------------------------------------------------------------------------------- intervals

AGES = [17, 23, 24, 25, 39, 39, 40, 59, 60, 90]


def test_intervals_on_ages() -> None:
    h = build_intervals(AGES, [5, 10, 20, 40])
    assert h.levels == 6 and h.domain_size == 9
    assert h.leaves() == ("17", "23", "24", "25", "39", "40", "59", "60", "90")
    assert [h.level_label("39", k) for k in range(6)] == ["39", "35-39", "30-39", "20-39", "0-39", "*"]
    assert [h.level_label("17", k) for k in range(6)] == ["17", "15-19", "10-19", "0-19", "0-39", "*"]
    assert [h.level_label("90", k) for k in range(6)] == ["90", "90-94", "90-99", "80-99", "80-119", "*"]
    assert h.children("0-39") == ("0-19", "20-39")
    assert h.children("20-24") == ("23", "24")
    assert h.range("40-79") == (40.0, 60.0)  # min/max leaf under it, not the interval bounds
    assert h.lca("23", "25") == "20-29"


def test_intervals_non_integer() -> None:
    h = build_intervals([0.3, 1.5, 2.25, 7.0], [0.5, 1, 5], integer=False)
    assert h.leaves() == ("0.3", "1.5", "2.25", "7.0")
    assert [h.level_label("0.3", k) for k in range(5)] == ["0.3", "[0, 0.5)", "[0, 1)", "[0, 5)", "*"]
    assert [h.level_label("2.25", k) for k in range(5)] == ["2.25", "[2, 2.5)", "[2, 3)", "[0, 5)", "*"]
    assert h.level_label("7.0", 3) == "[5, 10)"


def test_intervals_negative_and_decimal_values() -> None:
    h = build_intervals([-7, -1, 0, 4], [5])
    assert [h.level_label(v, 1) for v in ("-7", "-1", "0", "4")] == ["-10--6", "-5--1", "0-4", "0-4"]
    d = build_intervals([Decimal("1.50"), Decimal("2.25")], [1], integer=False)
    assert d.leaves() == ("1.50", "2.25")


def test_intervals_of_integers_take_no_fraction_per_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # a column of many distinct integers: a Fraction per value, sorted, cost seconds per 100,000 values
    from ldiv_db.taxonomy import parsers

    seen: list[str] = []
    exact = parsers._exact
    monkeypatch.setattr(parsers, "_exact", lambda v, what: seen.append(what) or exact(v, what))
    h = build_intervals([10, 9, -1, -16, 3], [4, 16])
    assert seen == ["width", "width"]
    assert h.leaves() == ("-16", "-1", "3", "9", "10")  # by value, not by label
    assert [h.level_label(v, 1) for v in h.leaves()] == ["-16--13", "-4--1", "0-3", "8-11", "8-11"]
    assert [h.level_label(v, 2) for v in h.leaves()] == ["-16--1", "-16--1", "0-15", "0-15", "0-15"]
    assert build_intervals([9.0, -1.0], [4]).level_label("-1.0", 1) == "-4--1"  # floats of whole numbers


def test_intervals_use_given_labels() -> None:
    h = build_intervals({"39": 39, "40": 40}, [10])
    assert h.leaves() == ("39", "40") and h.parent("39") == "30-39"


def test_intervals_identical_levels_are_kept() -> None:
    h = build_intervals([1, 2, 3], [10, 20])
    assert h.levels == 4
    assert [h.level_label("1", k) for k in range(4)] == ["1", "0-9", "0-19", "*"]
    assert h.children("0-19") == ("0-9",)


def test_intervals_no_widths_is_flat() -> None:
    h = build_intervals([3, 1, 2], [])
    assert h.levels == 2 and h.children("*") == ("1", "2", "3")


def test_intervals_bad_widths() -> None:
    with pytest.raises(HierarchyError, match="width 7 is not a multiple of the previous width 5"):
        build_intervals(AGES, [5, 7])
    with pytest.raises(HierarchyError, match="width 0 is not positive"):
        build_intervals(AGES, [0])
    with pytest.raises(HierarchyError, match=r"width 2\.5 is not a whole number"):
        build_intervals(AGES, [2.5])
    build_intervals([0.1, 0.2], [0.5, 1.5], integer=False)  # 1.5 = 3 x 0.5 exactly


def test_intervals_bad_values() -> None:
    with pytest.raises(HierarchyError, match=r"value 2\.5 is not an integer"):
        build_intervals([1, 2.5], [5])
    with pytest.raises(HierarchyError, match="not finite"):
        build_intervals([1.0, float("nan")], [5], integer=False)
    with pytest.raises(HierarchyError, match="no values"):
        build_intervals([], [5])
    with pytest.raises(HierarchyError, match="not a number"):
        build_intervals(["7"], [5])  # type: ignore[list-item]
