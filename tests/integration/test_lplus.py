"""l+-Optimize through ``ldiv_db.anonymize``: SPEC §5.9's Fig. 1 table with every allowed metric × scheme
(the release's cost equals the brute-force optimum and passes ``check``), the cut stored in ldiv.release,
CM, top-h, the full-domain space, and the errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import import_hierarchy
from tests.reference.lplus_oracle import brute_force, optimum
from tests.unit.lplus_fixtures import COUNTRY, EDU, FIG1

ALLOWED = {
    "lm": ["nosupp", "viosa", "allsa", "viorec", "allrec"],
    "dm": ["nosupp", "viorec", "allrec"],
    "cm": ["nosupp", "viorec", "allrec"],
}
CLASSES = ["Y", "N", "N", "Y", "Y", "N", "Y", "N", "N", "Y"]  # a class column for CM


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(":memory:")
    frame = pd.DataFrame(
        {
            "education": [r[0][0] for r in FIG1],
            "country": [r[0][1] for r in FIG1],
            "disease": [r[1] for r in FIG1],
            "cls": CLASSES,
        }
    )
    database.con.register("__f", frame)
    database.con.execute("CREATE TABLE fig1 AS SELECT * FROM __f")
    database.con.unregister("__f")
    for col, tax in (("education", EDU), ("country", COUNTRY)):
        lines = [";".join([leaf, tax.up[leaf], tax.root]) for leaf in tax.leaves(tax.root)]
        f = tmp_path / f"{col}.csv"
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        import_hierarchy(database, "fig1", col, f)
    yield database
    database.close()


def _lplus(db: Database, **kw: Any) -> ldiv_db.AnonymizeResult:
    """l+-Optimize on the Fig. 1 table (QIs education, country; SA disease)."""
    return ldiv_db.anonymize(db, "fig1", "education,country", "disease", algorithm="lplus", **kw)


def _rows_with_class() -> list[tuple[tuple[str, ...], str, str | None]]:
    return [(r[0], r[1], c) for r, c in zip(FIG1, CLASSES, strict=True)]


CASES = [(m, s, 2) for m, ss in ALLOWED.items() for s in ss] + [
    ("lm", "nosupp", 3),  # infeasible: T has Cancer 4/10 > 1/3
    ("lm", "viosa", 3),
    ("dm", "viorec", 3),
    ("cm", "allrec", 3),
]


@pytest.mark.parametrize(("metric", "scheme", "l_value"), CASES)
def test_fig1_release_is_optimal_and_verified(db: Database, metric: str, scheme: str, l_value: int) -> None:
    theta = {v: Fraction(1, l_value) for v in ("Cancer", "Flu", "Asthma")}
    expected = optimum(brute_force([EDU, COUNTRY], _rows_with_class(), theta, metric, scheme))
    kwargs = {"class_column": "cls"} if metric == "cm" else {}
    if expected is None:
        with pytest.raises(BadInput, match="without suppression"):
            _lplus(
                db,
                output="out",
                l=l_value,
                metric=metric,
                suppression=scheme,
                **kwargs,
            )
        return
    res = _lplus(
        db,
        output="out",
        l=l_value,
        metric=metric,
        suppression=scheme,
        replace=True,
        **kwargs,
    )
    assert res.verified
    assert Fraction(res.details["cost_exact"]) == expected
    assert res.details["optimal"] is True
    assert res.details["cuts_total"] == 25
    # the release's own metrics agree with the search's cost
    if metric == "dm":
        assert res.metrics["dm"] == pytest.approx(float(expected))
    if metric == "lm":
        assert res.metrics["lm"] == pytest.approx(float(expected))
    # the cut is stored with the release
    stored = json.loads(
        db.con.execute("SELECT details FROM ldiv.release WHERE release_id = ?", [res.release_id]).fetchone()[
            0
        ]
    )
    assert set(stored["cut"]) == {"education", "country"}
    # and an independent check of the written table passes with the thresholds used
    chk = ldiv_db.check(
        db, "out", "education,country", "disease", model="lplus", l=l_value, null_sa_unknown=True
    )
    assert chk.satisfied


def test_fig1_unique_optimum_is_published(db: Database) -> None:
    # SPEC §5.9: θ = 1/2, LM, vioSA → {Sec, Uni, UK, France, Am}, cost 7: ⟨Uni,UK⟩ = {5} loses its Asthma
    res = _lplus(
        db,
        output="out",
        l=2,
        metric="lm",
        suppression="viosa",
    )
    assert res.details["cut"] == {"education": ["Sec", "Uni"], "country": ["UK", "France", "Am"]}
    # one SA cell published as unknown, no row deleted (the words: ldiv_db/util/words.py)
    assert (res.cells_suppressed, res.rows_with_suppressed_cells, res.rows_deleted) == (1, 1, 0)
    out = db.con.execute(
        "SELECT education, country, count(*), count(disease) FROM out GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert out == [("Sec", "France", 2, 2), ("Sec", "UK", 2, 2), ("Uni", "Am", 5, 5), ("Uni", "UK", 1, 0)]


@pytest.mark.parametrize("warm", [False, True])
def test_the_search_is_freed_before_the_release_is_written(
    db: Database, warm: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # its per-cell arrays and saved frames would sit beside the release's write (the peak at 1M rows)
    import gc
    import weakref

    from ldiv_db.algorithms import lplus
    from ldiv_db.algorithms.lplus.search import Search

    searches: list[weakref.ref[Search]] = []
    alive_at_write: list[bool] = []
    run, assign = Search.run, lplus.assign

    def spy_run(self: Search, *args: Any, **kwargs: Any) -> Any:
        searches.append(weakref.ref(self))
        return run(self, *args, **kwargs)

    def spy_assign(*args: Any, **kwargs: Any) -> Any:
        gc.collect()
        alive_at_write.append(any(ref() is not None for ref in searches))
        return assign(*args, **kwargs)

    monkeypatch.setattr(Search, "run", spy_run)
    monkeypatch.setattr(lplus, "assign", spy_assign)
    res = _lplus(db, output="out", l=2, metric="lm", suppression="viosa", warm_start=warm)
    assert res.verified and len(searches) == (2 if warm else 1) and alive_at_write == [False]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"metric": "dm", "suppression": "viosa"}, "cannot be combined"),
        ({"metric": "cm", "suppression": "allrec"}, "class-column"),
        ({"metric": "xx"}, "--metric"),
        ({"model": "distinct"}, r"not l\+|lplus"),
    ],
)
def test_combination_errors(db: Database, options: dict[str, Any], match: str) -> None:
    with pytest.raises(BadInput, match=match):
        _lplus(db, output="o", l=2, **options)


def test_thresholds_and_sensitivity(db: Database) -> None:
    res = _lplus(
        db,
        output="o",
        model_options={"thresholds": {"Cancer": "1/2", "Flu": "1", "Asthma": "1"}},
        suppression="nosupp",
    )
    assert res.verified and res.details["thresholds"]["Cancer"] == "1/2"
    res = _lplus(
        db,
        output="o2",
        l=3,
        model_options={"sensitivity": True},
        suppression="viorec",
    )
    # fr_avg = 10/3; Cancer 4 > 10/3 → θ = 1/3·4·3/10 = 2/5; Flu 3, Asthma 3 ≤ 10/3 → 1/3
    assert res.details["thresholds"] == {"Cancer": "2/5", "Flu": "1/3", "Asthma": "1/3"}
    assert res.verified


def test_top_h_and_full_domain(db: Database) -> None:
    theta = {v: Fraction(1, 2) for v in ("Cancer", "Flu", "Asthma")}
    costs = sorted(
        c for c in brute_force([EDU, COUNTRY], FIG1, theta, "lm", "viorec").values() if c is not None
    )
    res = _lplus(
        db,
        output="o",
        l=2,
        suppression="viorec",
        top_h=3,
        seed=7,
    )
    assert [Fraction(c) for c in res.details["top_costs"]] == costs[:3]
    assert Fraction(res.details["cost_exact"]) in costs[:3]
    fd = _lplus(
        db,
        output="o3",
        l=2,
        suppression="viorec",
        space="full-domain",
    )
    assert fd.details["cuts_total"] == 9
    assert Fraction(fd.details["cost_exact"]) >= Fraction(res.details["top_costs"][0])
    assert fd.verified


def test_cli_anonymize_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ldiv_db.cli.main import main

    path = tmp_path / "fig1.duckdb"
    database = Database.open(path)
    frame = pd.DataFrame(
        {
            "education": [r[0][0] for r in FIG1],
            "country": [r[0][1] for r in FIG1],
            "disease": [r[1] for r in FIG1],
        }
    )
    database.con.register("__f", frame)
    database.con.execute("CREATE TABLE fig1 AS SELECT * FROM __f")
    database.con.unregister("__f")
    for col, tax in (("education", EDU), ("country", COUNTRY)):
        f = tmp_path / f"{col}.csv"
        f.write_text("\n".join(";".join([x, tax.up[x], tax.root]) for x in tax.leaves(tax.root)) + "\n")
        import_hierarchy(database, "fig1", col, f)
    database.close()
    args = [str(path), "--table", "fig1", "--qi", "education,country", "--sa", "disease"]
    code = main(
        [
            "anonymize",
            *args,
            "--algorithm",
            "lplus",
            "--l",
            "2",
            "--suppression",
            "viosa",
            "--output",
            "rel",
            "--json",
            "--quiet",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verified"] and out["details"]["cost_exact"] == "7"
    code = main(
        [
            "check",
            str(path),
            "--table",
            "rel",
            "--qi",
            "education,country",
            "--sa",
            "disease",
            "--model",
            "lplus",
            "--l",
            "2",
            "--null-sa-unknown",
        ]
    )
    assert code == 0
    # without the flag the NULL ("unknown") SA values are refused with a hint
    assert (
        main(
            [
                "check",
                str(path),
                "--table",
                "rel",
                "--qi",
                "education,country",
                "--sa",
                "disease",
                "--model",
                "lplus",
                "--l",
                "2",
            ]
        )
        == 2
    )
    code = main(
        [
            "anonymize",
            *args,
            "--algorithm",
            "lplus",
            "--l",
            "2",
            "--metric",
            "dm",
            "--suppression",
            "allsa",
            "--output",
            "rel2",
        ]
    )
    assert code == 2 and "cannot be combined" in capsys.readouterr().err
