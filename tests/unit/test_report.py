"""Pure parts of the report: risk from a class-size histogram, confidence bins aligned on 1/l, SVG ids
made unique per chart, the page's number formatting and HTML escaping."""

from __future__ import annotations

import re
from fractions import Fraction

from ldiv_db.core.classes import ClassFacts
from ldiv_db.reporting.charts import Look, bar_chart, scatter
from ldiv_db.reporting.gather import confidence_bins
from ldiv_db.reporting.page import fmt
from ldiv_db.sqlgen.render import html_safe, render_html


def test_risk_from_class_sizes() -> None:
    # classes: 2 of size 3, 1 of size 10, 1 of size 25 -> 41 rows, 4 classes
    f = ClassFacts.of([(3, 1), (10, 1), (25, 1), (3, 1)])  # the histogram of parts merges
    assert (f.classes, f.rows, f.k, f.dm) == (4, 41, 3, 9 + 9 + 100 + 625)
    r = f.risk
    assert r.max == Fraction(1, 3)
    assert r.average == Fraction(4, 41)  # sum over rows of 1/|G| = number of classes
    assert r.above == {"1/20": Fraction(16, 41), "1/10": Fraction(6, 41), "1/5": Fraction(6, 41)}
    # a class of exactly 20 rows has risk 1/20, which does not exceed 5 %
    assert ClassFacts.of([(20, 1)]).risk.above["1/20"] == 0
    assert ClassFacts.of([(20, 1)]).risk.to_dict() == {
        "highest": 0.05, "average": 0.05, "above_5pct": 0.0, "above_10pct": 0.0, "above_20pct": 0.0
    }  # fmt: skip


def test_confidence_bins_put_one_over_l_on_an_edge() -> None:
    for l in range(2, 30):
        b = confidence_bins(l)
        assert b % l == 0 and b >= 20
    assert confidence_bins(None) == 20 and confidence_bins(4) == 20 and confidence_bins(3) == 21


def test_chart_ids_are_unique_per_chart_and_bars_are_tagged() -> None:
    a = bar_chart("one", ["x", "y", "z"], [1, 2, 3], Look("t"))
    b = bar_chart("two", ["x", "y", "z"], [1, 2, 3], Look("t"))
    ids_a = set(re.findall(r'id="([^"]+)"', a.svg))
    ids_b = set(re.findall(r'id="([^"]+)"', b.svg))
    assert ids_a and not ids_a & ids_b
    assert {f"one-bar-{i}" for i in range(3)} <= ids_a
    refs = set(re.findall(r"url\(#([^)]+)\)", a.svg))
    assert refs <= ids_a  # every clip-path reference points into the same chart
    s = scatter("pts", [("a", 1.0, 0.5), ("b", 1.0, 0.5)], title="t", xlabel="x", ylabel="y")
    assert s.points == 2 and 'id="pts-pt-0"' in s.svg and 'id="pts-pt-1"' in s.svg


def test_html_escapes_values_but_not_marked_markup() -> None:
    page = render_html("_macros.html")  # the macros file renders to nothing but must parse
    assert page.strip() == ""
    from ldiv_db.sqlgen.render import _html_env

    tpl = _html_env().from_string("{{ a }}|{{ b }}")
    assert tpl.render(a="<b>x</b>", b=html_safe("<svg/>")) == "&lt;b&gt;x&lt;/b&gt;|<svg/>"


def test_fmt() -> None:
    assert fmt(1234567) == "1,234,567"
    assert fmt(None) == "n/a"
    assert fmt(Fraction(1, 3)) == "0.3333"
    assert fmt(True) == "yes"


def test_hostile_labels_stay_text_inside_the_svg() -> None:
    """Chart labels come from the data (SA values, column and table names): the SVG must carry them as
    escaped text, since the page inserts the SVG unescaped."""
    c = bar_chart("h", ["<script>alert(1)</script>", 'a&b"'], [1, 2], Look("<img src=x onerror=alert(1)>"))
    assert "<script" not in c.svg and "<img" not in c.svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in c.svg
