"""Top-down specialization for the plain models (issue 17): distinct, entropy, recursive (c,l), frequency
l-diversity and k-anonymity, with no sensitivity categories. Each release goes through the pipeline
(verified on the written table) and is then checked twice: by ``ldiv check`` with its model, and by the
model's definition recomputed here with pandas on the published QI-groups of the written table."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import make_table

QI = ["a", "b"]
VALUES = ["flu", "cold", "hiv", "cancer", "asthma", "gout"]
# (model, model options): the l of the diversity models comes from the test
PLAIN: list[tuple[str, dict[str, Any]]] = [
    ("distinct", {}),
    ("entropy", {}),
    ("recursive", {"c": 3}),
    ("frequency", {}),
    ("k-anonymity", {"k": 4}),
]


def holds(model: str, counts: Sequence[int], l: int, opts: dict[str, Any]) -> bool:
    """The model's definition (SPEC §0.2; k-anonymity: at least k rows) on one group's SA value counts."""
    r = sorted((n for n in counts if n > 0), reverse=True)
    if model == "distinct":
        return len(r) >= l
    if model == "entropy":
        total = sum(r)
        return -sum(n / total * math.log(n / total) for n in r) >= math.log(l) - 1e-12
    if model == "recursive":
        return len(r) >= l and r[0] < Fraction(opts["c"]) * sum(r[l - 1 :])
    if model == "frequency":
        return l * r[0] <= sum(r)
    assert model == "k-anonymity"
    return sum(r) >= opts["k"]


def hierarchies(db: Database, tmp: Path) -> None:
    """a: 6 leaves in 2 blocks of 3; b: 4 leaves in 2 blocks of 2; both under *."""
    for col, n, fanout in (("a", 6, 3), ("b", 4, 2)):
        path = tmp / f"{col}.csv"
        path.write_text("".join(f"{col}{i};{col}-{i // fanout};*\n" for i in range(n)), encoding="utf-8")
        import_hierarchy(db, "t", col, path)


def fixture_frame(n: int = 120, seed: int = 3) -> pd.DataFrame:
    rng = random.Random(seed)
    return pd.DataFrame(
        {
            "a": [f"a{rng.randrange(6)}" for _ in range(n)],
            "b": [f"b{rng.randrange(4)}" for _ in range(n)],
            "s": [rng.choice(VALUES) for _ in range(n)],
        }
    )


def published_groups(db: Database, out: str = "o") -> list[list[int]]:
    """The SA value counts of every published QI-group of the written table (pandas, not the SQL)."""
    frame = db.con.execute(f"SELECT * FROM {out}").df()
    return [list(g["s"].value_counts()) for _, g in frame.groupby(QI, dropna=False)]


@pytest.mark.parametrize(("model", "opts"), PLAIN)
def test_plain_model_release_is_verified_and_checked(
    db: Database, tmp_path: Path, model: str, opts: dict[str, Any]
) -> None:
    frame = fixture_frame()
    make_table(db, "t", frame)
    hierarchies(db, tmp_path)
    l = None if model == "k-anonymity" else 3
    res = ldiv_db.anonymize(db, "t", QI, "s", algorithm="topdown", output="o", l=l, model=model, model_options=opts, quiet=True)  # fmt: skip
    assert res.verified and res.model == model
    assert res.rows_published == len(frame) and res.rows_deleted == 0
    checked = ldiv_db.check(db, "o", QI, "s", model=model, l=l, **opts)
    assert checked.satisfied is True
    groups = published_groups(db)
    assert all(holds(model, g, l or 0, opts) for g in groups)
    assert len(groups) > 1  # the fixture allows specializing below the root
    assert sum(sum(g) for g in groups) == len(frame)


def test_plain_models_need_no_categories_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.duckdb"
    with Database.open(path) as db:
        make_table(db, "t", fixture_frame())
        hierarchies(db, tmp_path)
    common = [str(path), "--qi", "a,b", "--sa", "s", "--model", "recursive", "--l", "3", "--c", "3"]
    code = main(["anonymize", *common[:1], "--table", "t", *common[1:], "--algorithm", "topdown", "--output", "o", "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert main(["check", *common[:1], "--table", "o", *common[1:]]) == 0


def test_plain_infeasible_root_names_the_model(db: Database, tmp_path: Path) -> None:
    make_table(db, "t", fixture_frame())
    hierarchies(db, tmp_path)
    with pytest.raises(BadInput, match=r"does not satisfy recursive \(c=1/10, l=3\)") as err:
        ldiv_db.anonymize(db, "t", QI, "s", algorithm="topdown", output="o", l=3, model="recursive", model_options={"c": "1/10"})  # fmt: skip
    assert err.value.hint == "lower --l or raise --c"
    with pytest.raises(BadInput, match="k-anonymity") as err:
        ldiv_db.anonymize(db, "t", QI, "s", algorithm="topdown", output="o", model="k-anonymity", model_options={"k": 121})  # fmt: skip
    assert err.value.hint == "lower --k"


def test_plain_models_take_one_sa(db: Database, tmp_path: Path) -> None:
    frame = fixture_frame()
    frame["s2"] = list(reversed(frame["s"]))
    make_table(db, "t", frame)
    hierarchies(db, tmp_path)
    with pytest.raises(BadInput, match="one sensitive attribute"):
        ldiv_db.anonymize(db, "t", QI, ["s", "s2"], algorithm="topdown", output="o", l=2, model="distinct")


def test_null_sa_is_a_value_for_the_plain_models(db: Database, tmp_path: Path) -> None:
    frame = fixture_frame()
    frame["s"] = frame["s"].where(frame["s"] != "gout", None)
    make_table(db, "t", frame)
    hierarchies(db, tmp_path)
    res = ldiv_db.anonymize(db, "t", QI, "s", algorithm="topdown", output="o", l=3, model="entropy", null_as_value=True, quiet=True)  # fmt: skip
    assert res.verified
    assert ldiv_db.check(db, "o", QI, "s", model="entropy", l=3, null_as_value=True).satisfied is True
    frame_out = db.con.execute("SELECT * FROM o").df()
    groups = [list(g["s"].value_counts(dropna=False)) for _, g in frame_out.groupby(QI, dropna=False)]
    assert all(holds("entropy", g, 3, {}) for g in groups)
    assert frame_out["s"].isna().sum() == frame["s"].isna().sum() > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 3), st.sampled_from(VALUES)), min_size=4, max_size=60
    ),
    which=st.integers(0, len(PLAIN) - 1),
    l=st.integers(2, 3),
)
def test_every_release_satisfies_its_model(
    tmp_path: Path, data: list[tuple[int, int, str]], which: int, l: int
) -> None:
    """Property: whatever the table, a top-down release satisfies its plain model on the written table
    (every published QI-group, by the definition), covers every row once, or the whole table fails the
    model and the call is refused."""
    model, opts = PLAIN[which]
    frame = pd.DataFrame({"a": [f"a{x}" for x, _, _ in data], "b": [f"b{y}" for _, y, _ in data], "s": [s for _, _, s in data]})  # fmt: skip
    lv = None if model == "k-anonymity" else l
    with Database.open(":memory:") as db:
        make_table(db, "t", frame)
        hierarchies(db, tmp_path)
        call = {
            "algorithm": "topdown",
            "output": "o",
            "l": lv,
            "model": model,
            "model_options": opts,
            "quiet": True,
        }
        if not holds(model, list(frame["s"].value_counts()), l, opts):
            with pytest.raises(BadInput, match=r"infeasible|whole table does not satisfy"):
                ldiv_db.anonymize(db, "t", QI, "s", **call)
            return
        res = ldiv_db.anonymize(db, "t", QI, "s", **call)
        assert res.verified and res.rows_published == len(frame)
        groups = published_groups(db)
        assert all(holds(model, g, l, opts) for g in groups)
        assert sum(sum(g) for g in groups) == len(frame)
        rids = db.con.execute("SELECT list(source_rowid ORDER BY source_rowid) FROM ldiv.release_row WHERE release_id = ?", [res.release_id]).fetchone()  # fmt: skip
        assert rids is not None and rids[0] == list(range(len(frame)))
