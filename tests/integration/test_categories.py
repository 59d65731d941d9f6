"""Sensitivity categories stored beside the taxonomies (ldiv.sa_category; SPEC §3.1): import with
validation, ``hierarchy show`` with the weights of each scheme, and ``--categories`` made optional for
anonymize / check / attack (the release falls back to its source's categories)."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

import ldiv_db
from fixtures.papers import paper_tables, read_table
from ldiv_db.cli.main import main
from ldiv_db.commands.attack import similarity
from ldiv_db.core import inputs as inputs_module
from ldiv_db.core.catalog import Column, Table, resolve_table
from ldiv_db.core.stored import stored_categories
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, HierarchyError
from ldiv_db.taxonomy import import_categories, import_hierarchy, show_hierarchy
from tests.integration.frames import identity_seeds

QI = ["Age", "Country", "Zipcode"]
TABLE5 = {
    "HIV": 1,
    "Cancer": 1,
    "Phthisis": 2,
    "Hepatitis": 2,
    "Obesity": 3,
    "Asthma": 3,
    "Flu": 4,
    "Indigestion": 4,
}


def categories_file() -> Path:
    path = paper_tables()["lalpha_table5"].categories
    assert path is not None
    return path


def load(db: Database, name: str, table: str = "t") -> None:
    frame = read_table(name).sort_values("row_id").drop(columns=["row_id"]).astype(str)
    db.con.register("__frame", frame)
    db.con.execute(f'CREATE OR REPLACE TABLE "{table}" AS SELECT * FROM __frame')
    db.con.unregister("__frame")


def stored(db: Database) -> dict[str, int]:
    rows = db.con.execute(
        "SELECT value, category FROM ldiv.sa_category WHERE table_name = 'main.t' AND column_name = 'Disease'"
    ).fetchall()
    return {v: c for v, c in rows}


def test_import_stores_the_file(db: Database) -> None:
    load(db, "lalpha_table5")
    info = import_categories(db, "T", "disease", categories_file())  # names resolved case-insensitively
    assert stored(db) == TABLE5
    assert (info.table, info.column, info.unused) == ("main.t", "Disease", 0)
    assert "4 categories, 8 values" in str(info)


def test_import_replaces_and_counts_values_not_in_the_data(db: Database, tmp_path: Path) -> None:
    load(db, "lalpha_table5")
    import_categories(db, "t", "Disease", categories_file())
    # every Table 5 value gets a (new) category, plus two values the data does not have
    f = tmp_path / "c.csv"
    f.write_text("".join(f"{v};{1 if c < 3 else 2}\n" for v, c in TABLE5.items()) + "Gout;2\nMumps;2\n")
    info = import_categories(db, "t", "Disease", f)
    assert info.unused == 2
    assert stored(db)["Flu"] == 2 and stored(db)["Gout"] == 2 and len(stored(db)) == 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "HIV;1\nCancer;1\nPhthisis;2\nHepatitis;2\nObesity;3\nAsthma;3\nFlu;4\n",
            r"no category to 1 value.*'Indigestion' \(1 rows\)",
        ),
        ("HIV;1\nCancer;one\n", r"c\.csv:2: category of 'Cancer' must be a positive integer rank, got 'one'"),
        ("HIV;1\nCancer;1.5\n", r"positive integer rank, got '1\.5'"),
        ("HIV;1\nCancer;0\n", r"positive integer rank, got '0'"),
        ("HIV;1\nCancer;1\nHIV;2\n", r"c\.csv:3: value 'HIV' is listed twice \(first on line 1\)"),
        ("HIV;1\nCancer;2\nFlu;4\n", r"skips category 3 of 1\.\.4"),
        ("HIV;1;x\n", r"expected 'value;category'"),
        ("\n", r"is empty"),
    ],
)
def test_import_errors_store_nothing(db: Database, tmp_path: Path, text: str, message: str) -> None:
    load(db, "lalpha_table5")
    import_categories(db, "t", "Disease", categories_file())
    f = tmp_path / "c.csv"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput, match=message):
        import_categories(db, "t", "Disease", f)
    assert stored(db) == TABLE5  # the earlier categories are intact


def test_import_names_the_uncovered_values_with_counts(db: Database, tmp_path: Path) -> None:
    load(db, "lalpha_table5")
    f = tmp_path / "c.csv"
    f.write_text("HIV;1\nCancer;2\n", encoding="utf-8")
    with pytest.raises(HierarchyError) as err:
        import_categories(db, "t", "Disease", f)
    # Table 5: Flu 3 rows, Indigestion 1, Hepatitis/Phthisis/Asthma/Obesity 1 each
    assert "no category to 6 values" in err.value.message
    assert "'Flu' (3 rows)" in err.value.message
    assert err.value.hint is not None and "value;category" in err.value.hint
    assert stored(db) == {}


def test_show_lists_categories_with_the_weights_of_each_scheme(db: Database) -> None:
    load(db, "lalpha_table5")
    import_categories(db, "t", "Disease", categories_file())
    text = show_hierarchy(db, "t")
    assert "main.t.Disease: 4 sensitivity categories, 8 values" in text and "weights: uniform" in text
    # SPEC §3.1: uniform 0, 1/3, 2/3, 1
    assert "1  weight       0 (0.0000)  Cancer, HIV" in text
    assert "2  weight     1/3 (0.3333)  Hepatitis, Phthisis" in text
    assert "4  weight       1 (1.0000)  Flu, Indigestion" in text
    # the literal sensitivity formula with β = 2: 0, 36/49, 45/49, 1
    text = show_hierarchy(db, "t", "Disease", "sensitivity", 2)
    assert "weights: sensitivity, beta 2" in text
    assert "2  weight   36/49" in text and "3  weight   45/49" in text
    # explicit weights (the paper's printed 9/61, 45/61 ...)
    text = show_hierarchy(db, "t", "Disease", {1: "0", 2: "9/61", 3: "45/61", 4: "1"})
    assert "2  weight    9/61" in text and "weights: explicit" in text
    # a column without categories or hierarchy
    assert show_hierarchy(db, "t", "Age") == "no hierarchies stored for main.t.Age"


def test_stored_categories_serve_check_anonymize_and_attack(db: Database, tmp_path: Path) -> None:
    t = paper_tables()["lalpha_table8"]
    frame = read_table(t).sort_values("row_id").drop(columns=["row_id"]).astype({"Zipcode": str})
    db.con.register("__frame", frame)
    db.con.execute('CREATE TABLE "t" AS SELECT * FROM __frame')
    db.con.unregister("__frame")
    import_hierarchy(db, "t", "Zipcode", t.hierarchies["Zipcode"])
    with pytest.raises(BadInput, match="needs sensitivity categories") as err:
        ldiv_db.check(db, "t", "Zipcode", "Disease", model="distinct-alpha", l=2, alpha=1)
    assert err.value.hint is not None and "import-categories" in err.value.hint
    with pytest.raises(BadInput, match="no sensitivity categories given or stored"):
        similarity(db, "t", ["Zipcode"], "Disease")

    import_categories(db, "t", "Disease", categories_file())
    # Table 8 grouped by zip code: 4351 {HIV, Flu, HIV} passes distinct (2,1), 4352 {Flu} fails
    chk = ldiv_db.check(db, "t", "Zipcode", "Disease", model="distinct-alpha", l=2, alpha=1)
    assert chk.satisfied is False
    res = ldiv_db.anonymize(
        db, "t", "Zipcode", "Disease", algorithm="topdown", output="o", l=2, model="distinct-alpha",
        model_options={"alpha": 1}, quiet=True, seed=identity_seeds(db, "t")[0],  # SPEC's row order for ties
    )  # fmt: skip
    assert res.verified  # the Table 8 result, from the stored categories (SPEC §3.3)
    groups = db.con.execute(
        "SELECT list(source_rowid + 1 ORDER BY source_rowid) FROM ldiv.release_row GROUP BY group_id ORDER BY 1"
    ).fetchall()
    assert [g[0] for g in groups] == [[1, 2], [3, 4]]
    # the release has no categories of its own: those of its source serve check and the attack
    chk = ldiv_db.check(db, "o", "Zipcode", "Disease", model="distinct-alpha", l=2, alpha=1)
    assert chk.satisfied is True
    assert (
        ldiv_db.check(db, "o", "Zipcode", "Disease", model="distinct-alpha", l=2, alpha=2).satisfied is False
    )
    r = similarity(db, "o", ["Zipcode"], "Disease")
    assert (r.groups, r.single_category_rows, r.category_confidence) == (2, 0, F(1, 2))
    # an explicit --categories still wins: Flu made category 1 too -> both groups single-category
    override = {"HIV": 1, "Flu": 1}
    assert similarity(db, "o", ["Zipcode"], "Disease", override).single_category_rows == 4
    # categories stored for the release itself are its own: they replace the source's, never mix with them
    own = tmp_path / "own.csv"
    own.write_text("value;category\nHIV;1\nFlu;1\n", encoding="utf-8")
    import_categories(db, "o", "Disease", own)
    release, source = resolve_table(db, "o"), resolve_table(db, "t")
    assert stored_categories(db, release, release.column("Disease")) == {"Flu": 1, "HIV": 1}
    assert stored_categories(db, source, source.column("Disease")) == TABLE5
    assert similarity(db, "o", ["Zipcode"], "Disease").single_category_rows == 4


def test_cli_import_show_attack(db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.duckdb"
    frame = read_table("lalpha_table5").sort_values("row_id").drop(columns=["row_id"]).astype(str)
    with Database.open(str(path)) as d:
        d.con.register("__frame", frame)
        d.con.execute('CREATE TABLE "t" AS SELECT * FROM __frame')
        d.con.unregister("__frame")
    assert main(["hierarchy", "import-categories", str(path), "--table", "t", "--column", "Disease",
                 str(categories_file())]) == 0  # fmt: skip
    assert "main.t.Disease: sensitivity categories, 4 categories, 8 values" in capsys.readouterr().out
    assert main(["hierarchy", "show", str(path), "--table", "t", "--category-weights", "sensitivity"]) == 0
    out = capsys.readouterr().out
    assert "36/49" in out and "45/49" in out
    assert main(["attack", "similarity", str(path), "--table", "t", "--qi", ",".join(QI), "--sa", "Disease",
                 "--json"]) == 0  # fmt: skip
    assert '"single_category_rows": 8' in capsys.readouterr().out  # Table 5 (SPEC §3.2)
    bad = tmp_path / "bad.csv"
    bad.write_text("HIV;1\nCancer;3\n", encoding="utf-8")
    code = main(
        ["hierarchy", "import-categories", str(path), "--table", "t", "--column", "Disease", str(bad)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "skips category 2 of 1..3" in err and "hint:" in err


def test_a_null_value_cannot_be_stored(db: Database) -> None:
    db.con.execute("CREATE TABLE t AS SELECT 'HIV' AS Disease")
    with pytest.raises(HierarchyError, match="NULL"):
        import_categories(db, "t", "Disease", {None: 1, "HIV": 1})
    with pytest.raises(HierarchyError, match="positive integer"):
        import_categories(db, "t", "Disease", {"HIV": 1.5})
    with pytest.raises(HierarchyError, match="positive integer"):
        import_categories(db, "t", "Disease", {"HIV": "one"})


def test_categories_belong_to_one_table_and_column(db: Database) -> None:
    load(db, "lalpha_table5")
    import_categories(db, "t", "Disease", categories_file())
    db.con.execute("CREATE TABLE u AS SELECT * FROM t")
    with pytest.raises(BadInput, match="needs sensitivity categories"):
        ldiv_db.check(db, "u", QI, "Disease", model="distinct-alpha", l=2, alpha=1)
    with pytest.raises(BadInput, match="needs sensitivity categories"):
        ldiv_db.check(db, "t", ["Age", "Country"], "Zipcode", model="distinct-alpha", l=2, alpha=1)


def test_stored_categories_are_read_only_by_a_model_that_takes_them(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The categories' read is a statement of its own (on Spark a job; DuckDB keeps it per connection): a
    model without categories reads none, check and anonymize alike; an (l,α) model reads the stored ones."""
    t = paper_tables()["lalpha_table8"]
    frame = read_table(t).sort_values("row_id").drop(columns=["row_id"]).astype({"Zipcode": str})
    db.con.register("__frame", frame)
    db.con.execute('CREATE TABLE "t" AS SELECT * FROM __frame')
    db.con.unregister("__frame")
    import_categories(db, "t", "Disease", categories_file())
    reads: list[str] = []

    def counted(db: Database, table: Table, column: Column) -> dict[str, int] | None:
        reads.append(table.name)
        return stored_categories(db, table, column)

    monkeypatch.setattr(inputs_module, "stored_categories", counted)
    ldiv_db.check(db, "t", "Zipcode", "Disease", model="distinct", l=2)
    ldiv_db.anonymize(db, "t", "Zipcode", "Disease", algorithm="mondrian", output="o", l=2, quiet=True)
    assert reads == []
    alpha = ldiv_db.check(db, "t", "Zipcode", "Disease", model="distinct-alpha", l=2, alpha=1)
    assert reads == ["main.t"]
    assert alpha.satisfied is False  # Table 8 by zip code: 4352 {Flu} fails, by the stored categories
