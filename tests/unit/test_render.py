"""The rendering choke point: quoting, params discipline, the finalize guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from ldiv_db.sqlgen.render import Ident, Renderer, TableRef, parse_header, quote


@pytest.fixture
def renderer(tmp_path: Path) -> Renderer:
    (tmp_path / "ok.sql").write_text(
        "-- purpose: test\n-- params: l\n-- returns: x\nSELECT {{ cols | idents }} FROM {{ t | table }} WHERE n >= $l\n"
    )
    (tmp_path / "raw.sql").write_text(
        "-- purpose: bad\n-- params: none\n-- returns: x\nSELECT '{{ value }}'\n"
    )
    return Renderer(tmp_path)


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("it's", '"it\'s"'),
        ('a"b', '"a""b"'),
        ("select", '"select"'),
        ("Zip Code", '"Zip Code"'),
        ("ünï", '"ünï"'),
    ],
)
def test_quote_hostile_names(name: str, quoted: str) -> None:
    assert quote(name) == quoted


def test_quote_is_sqlglot_s_duckdb_quoting() -> None:
    """``quote`` writes an identifier as sqlglot's DuckDB dialect does (it did so through sqlglot before
    decision 0023, Round 7): names made of quotes, escapes, line breaks, NUL and non-ASCII letters."""
    import random

    from sqlglot import exp

    alphabet = [
        '"',
        "'",
        "\\",
        "\n",
        "\r",
        "\t",
        "\x00",
        "a",
        "Z",
        "é",
        "日",
        " ",
        ".",
        "`",
        "$",
        "-",
        "0",
        "\u2028",
    ]
    alphabet += ["--", "/*", ";", "?", "[", "]"]
    rng = random.Random(7)
    names = ["", "a", '"', '""', "select", "1abc", "ABC", "x y"]
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(5000)]
    for name in names:
        assert quote(name) == exp.to_identifier(name, quoted=True).sql(dialect="duckdb"), repr(name)


def test_render_quotes_and_binds(renderer: Renderer) -> None:
    q = renderer.render(
        "ok.sql", {"l": 3}, cols=[Ident('a"b'), Ident("select")], t=TableRef("Zip Code", "main")
    )
    assert q.sql.endswith('SELECT "a""b", "select" FROM "main"."Zip Code" WHERE n >= $l')
    assert q.params == {"l": 3}


def test_render_refuses_missing_and_undeclared_params(renderer: Renderer) -> None:
    with pytest.raises(TypeError, match="missing"):
        renderer.render("ok.sql", {}, cols=[], t=TableRef("t"))
    with pytest.raises(TypeError, match="undeclared"):
        renderer.render("ok.sql", {"l": 1, "x": 2}, cols=[], t=TableRef("t"))


def test_finalize_refuses_raw_strings(renderer: Renderer) -> None:
    with pytest.raises(TypeError, match="refusing to print a raw str"):
        renderer.render("raw.sql", value="1'; DROP TABLE x; --")


def test_header_parsing() -> None:
    h = parse_header("-- purpose: p\n-- params: a, b\n-- returns: r\nSELECT 1")
    assert h.params == frozenset({"a", "b"}) and h.purpose == "p" and h.returns == "r"
    assert parse_header("-- params: none\nSELECT 1").params == frozenset()


def test_plan_hints_come_from_the_header_and_unknown_ones_are_refused() -> None:
    assert parse_header("-- purpose: p\n-- hints: many-groups\nSELECT 1").hints == frozenset({"many-groups"})
    assert parse_header("-- purpose: p\nSELECT 1").hints == frozenset()
    with pytest.raises(ValueError, match="unknown plan hints \\['fast'\\]"):
        parse_header("-- hints: many-groups, fast\nSELECT 1")
    assert (
        "many-groups"
        in Renderer().render("partition/group_stats.sql", target=TableRef("s"), hist=TableRef("h")).hints
    )


def test_a_caller_adds_plan_hints_to_a_rendered_statement() -> None:
    q = Renderer().render("partition/group_stats.sql", target=TableRef("s"), hist=TableRef("h"))
    more = q.hinted("joins-in-order")
    assert more.hints == q.hints | {"joins-in-order"} and more.sql == q.sql and more.params == q.params
    with pytest.raises(ValueError, match="unknown plan hints \\['fast'\\]"):
        q.hinted("fast")


def test_shipped_templates_all_have_headers() -> None:
    r = Renderer()
    names = r.templates()
    assert names, "no templates found"
    assert not any(n.startswith("_") for n in names)


def test_a_rendering_is_kept_only_for_contexts_that_print_alike(tmp_path: Path) -> None:
    """The rendered text is kept by template and context (render.py's store): the same context gives the
    stored text without rendering again, any other context its own text, and a context holding an object
    (whose state the template may read) is rendered every time."""
    (tmp_path / "shape.sql").write_text(
        "-- purpose: test\n-- params: l\n-- returns: x\n"
        "SELECT {{ cols | idents }}{% if flag %}, 1{% endif %} FROM {{ t | table }} WHERE n >= $l"
        "{% if obj %} AND {{ obj.col | ident }} > 0{% endif %}\n"
    )
    r = Renderer(tmp_path)
    calls: list[str] = []
    template = r.env.get_template("shape.sql")
    original = template.render

    def counted(*args: object, **kw: object) -> str:
        calls.append("render")
        return original(*args, **kw)

    template.render = counted  # type: ignore[method-assign]
    t = TableRef("t", "main")
    a = r.render("shape.sql", {"l": 2}, cols=[Ident("a"), Ident("b")], t=t, flag=False, obj=None)
    b = r.render("shape.sql", {"l": 5}, cols=[Ident("a"), Ident("b")], t=t, flag=False, obj=None)
    assert a.sql == b.sql and a.sql.endswith('\nSELECT "a", "b" FROM "main"."t" WHERE n >= $l')
    assert (a.params, b.params) == ({"l": 2}, {"l": 5}) and len(calls) == 1  # values are bound, not kept
    c = r.render("shape.sql", {"l": 2}, cols=[Ident("a"), Ident("c")], t=t, flag=1, obj=None)
    assert c.sql.endswith('\nSELECT "a", "c", 1 FROM "main"."t" WHERE n >= $l') and len(calls) == 2
    d = r.render("shape.sql", {"l": 2}, cols=[Ident("a"), Ident("c")], t=t, flag=True, obj=None)
    assert d.sql == c.sql and len(calls) == 3  # True is not 1 in the key (a bool may not be printed)

    class Holder:
        col = Ident("x")

    held = Holder()
    e = r.render("shape.sql", {"l": 2}, cols=[Ident("a")], t=t, flag=False, obj=held)
    held.col = Ident("y")
    f = r.render("shape.sql", {"l": 2}, cols=[Ident("a")], t=t, flag=False, obj=held)
    assert e.sql.endswith('"x" > 0') and f.sql.endswith('"y" > 0') and len(calls) == 5
