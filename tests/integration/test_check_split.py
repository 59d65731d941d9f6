"""A check split by group into parts (``evaluate(..., parts=n)``; on PostgreSQL the parts run on sessions
sharing one snapshot) gives exactly the result of the whole evaluation: every statistic, the verdict and
the worst groups with their keys. On DuckDB the parts run one after another on the one connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.core.inputs import resolve_inputs
from ldiv_db.db import Database
from ldiv_db.privacy.spec import model_spec
from ldiv_db.verify.check import evaluate

MODELS: list[tuple[str | None, dict[str, Any]]] = [
    (None, {}),
    ("distinct", {"l": 2}),
    ("entropy", {"l": 2}),
    ("recursive", {"l": 2, "c": 3}),
    ("recursive", {"l": 3, "c": "3/2"}),
    ("frequency", {"l": 2}),
    ("k-anonymity", {"k": 3}),
    ("unique-distinct", {"l": 2}),
]


def _table(path: Path, rows: list[dict[str, Any]]) -> None:
    con = duckdb.connect(str(path))
    con.register("frame", pd.DataFrame(rows))
    con.execute('CREATE OR REPLACE TABLE "t 1" AS SELECT * FROM frame')
    con.close()


def _result(
    path: Path, model: tuple[str | None, dict[str, Any]], parts: int | None, **kw: Any
) -> dict[str, Any]:
    name, options = model
    sa = kw.pop("sa", ["s1"])
    qi = kw.pop("qi", ["q 1", "q2"])
    nav = kw.pop("null_as_value", True)
    with Database.open(str(path), mode="read") as db:
        inputs = resolve_inputs(db, "t 1", qi, sa, null_as_value=nav, **kw)
        privacy = model_spec(name, None, options).build(inputs)
        out = evaluate(db, inputs, privacy, null_as_value=nav, worst=4, parts=parts).to_dict()
        db.drop_work_tables()
    out.pop("seconds")
    out.pop("queries")
    return out


@st.composite
def tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    n = draw(st.integers(1, 120))
    q1 = st.sampled_from([0, 1, 2, 3, 4, 5, None])
    q2 = st.sampled_from(["a", "b'", "Zé", None])
    s = st.sampled_from(["flu", "HIV", "it's", "x", "y", None])
    return [
        {
            "q 1": draw(q1),
            "q2": draw(q2),
            "q3": draw(st.sampled_from([True, False, None])),
            "s1": draw(s),
            "s2": draw(s),
            "g": draw(st.integers(0, 9)),
        }
        for _ in range(n)
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=tables(),
    model=st.sampled_from(MODELS),
    parts=st.integers(2, 5),
    two_sa=st.booleans(),
    three_keys=st.booleans(),
)
def test_split_check_equals_whole(
    tmp_path: Path, rows: list[dict[str, Any]], model: Any, parts: int, two_sa: bool, three_keys: bool
) -> None:
    """With three keys the parts are chosen by the first two (partition/histogram.sql) and still hold
    whole groups."""
    path = tmp_path / "split.duckdb"
    _table(path, rows)
    kw: dict[str, Any] = {"sa": ["s1", "s2"] if two_sa else ["s1"]}
    if three_keys:
        kw["qi"] = ["q 1", "q2", "q3"]
    assert _result(path, model, parts, **kw) == _result(path, model, None, **kw)


@pytest.mark.parametrize("model", MODELS[1:4], ids=lambda m: str(m[0]))
def test_split_by_group_column_and_with_empty_parts(tmp_path: Path, model: Any) -> None:
    # two groups into seven parts: at least five parts hold no group at all
    rows = [
        {"q 1": i % 3, "q2": "a", "s1": ["flu", "HIV", "x"][i % 3], "s2": "y", "g": i % 2} for i in range(30)
    ]
    path = tmp_path / "groups.duckdb"
    _table(path, rows)
    whole = _result(path, model, None, group_column="g")
    assert whole["classes"] == 2
    assert _result(path, model, 7, group_column="g") == whole


@pytest.mark.parametrize("qi", [["q 1", "q2"], ["q 1", "q2", "q3"]], ids=["two keys", "three keys"])
def test_a_part_with_exact_ids_merges_with_hashed_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qi: list[str]
) -> None:
    """A part whose hashed ids collide rebuilds with exact ids (global dense ranks) while the other parts
    keep hashes: the worst groups are still ordered as one verdict orders them and named by their part.
    With three keys, both ways of building a part must choose its groups by the same two keys."""
    # ten homogeneous groups of ten sizes (no ties in the worst order) and ten diverse ones
    rows = [
        {"q 1": j, "q2": "a", "q3": j % 2, "s1": "flu", "s2": "y", "g": 0}
        for j in range(10)
        for _ in range(j + 2)
    ]
    rows += [
        {"q 1": j, "q2": "b", "q3": j % 2, "s1": v, "s2": "y", "g": 0}
        for j in range(10)
        for v in ("flu", "HIV", "x")
    ]
    path = tmp_path / "exact.duckdb"
    _table(path, rows)
    whole = _result(path, ("recursive", {"l": 2, "c": 2}), None, qi=qi)
    built = SqlEvaluator.build

    def collide_in_part_one(self: SqlEvaluator) -> SqlEvaluator:
        if self.part == (1, 3) and not self._built:
            self.exact_ids = True  # as partition/gid_check.sql finding a collision makes it
        return built(self)

    monkeypatch.setattr(SqlEvaluator, "build", collide_in_part_one)
    split = _result(path, ("recursive", {"l": 2, "c": 2}), 3, qi=qi)
    assert whole["violating_classes"] == 10
    assert [w["size"] for w in whole["worst"]] == [11, 10, 9, 8]
    assert [w["key"] for w in split["worst"]] == [w["key"] for w in whole["worst"]]
    assert {k: v for k, v in split.items() if k != "worst"} == {
        k: v for k, v in whole.items() if k != "worst"
    }


def test_a_model_reading_other_tables_is_not_split(tmp_path: Path) -> None:
    rows = [{"q 1": i % 4, "q2": "a", "s1": ["flu", "HIV", "x"][i % 3], "s2": "y", "g": 0} for i in range(40)]
    path = tmp_path / "alpha.duckdb"
    _table(path, rows)
    with Database.open(str(path), mode="read") as db:
        inputs = resolve_inputs(db, "t 1", ["q 1", "q2"], ["s1"])
        spec = model_spec(
            "distinct-alpha", None, {"l": 2, "alpha": 0, "categories": {"flu": 1, "HIV": 1, "x": 2}}
        )
        privacy = spec.build(inputs)
        assert privacy is not None and not privacy.per_part
        seen: list[tuple[int, int]] = []
        built = SqlEvaluator.build

        def spy(self: SqlEvaluator) -> SqlEvaluator:
            seen.append(self.part)
            return built(self)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(SqlEvaluator, "build", spy)
            evaluate(db, inputs, privacy, parts=3)
    assert set(seen) == {(0, 1)}  # one evaluator of the whole: not split


@pytest.mark.parametrize("parts", [2, 3, 4, 5])
def test_recursive_profile_merges_the_largest_c_of_every_part(tmp_path: Path, parts: int) -> None:
    # twelve groups, each with two or three values in a different skew: r1 / tail differs per group
    rows = []
    for j in range(12):
        counts = {"flu": j + 1, "HIV": 1 + j % 3, **({"x": 1} if j % 2 else {})}
        rows += [
            {"q 1": j, "q2": "a", "s1": v, "s2": "y", "g": 0} for v, n in counts.items() for _ in range(n)
        ]
    path = tmp_path / "profile.duckdb"
    _table(path, rows)
    whole = _result(path, (None, {}), None)
    assert whole["distinct_l"] == 2 and whole["recursive"] == [
        {"l": 2, "c_above": "7"}
    ]  # group 6: 7 flu, 1 HIV
    assert _result(path, (None, {}), parts) == whole


@pytest.mark.parametrize("model", MODELS[1:], ids=lambda m: str(m[0]))
def test_without_the_profile_the_verdict_is_the_same(tmp_path: Path, model: Any) -> None:
    """``evaluate(profile=False)`` (a release's verification): the same verdict, groups and statistics as
    the whole evaluation, no recursive bound, and no statement of the profile run."""
    rows = []
    for j in range(12):
        counts = {
            "flu": j + 1,
            "HIV": 1 + j % 3,
            **({"x": 1} if j % 2 else {}),
            **({None: 2} if j % 5 else {}),
        }
        rows += [
            {"q 1": j % 7, "q2": "ab"[j % 2], "s1": v, "s2": "yz"[j % 2]}
            for v, n in counts.items()
            for _ in range(n)
        ]
    path = tmp_path / "noprofile.duckdb"
    _table(path, rows)
    name, options = model
    with Database.open(str(path), mode="read") as db:
        inputs = resolve_inputs(db, "t 1", ["q 1", "q2"], ["s1", "s2"], null_as_value=True)
        privacy = model_spec(name, None, options).build(inputs)
        whole = evaluate(db, inputs, privacy, null_as_value=True, worst=4).to_dict()
        steps = len(db.steps)
        lean = evaluate(db, inputs, privacy, null_as_value=True, worst=4, profile=False).to_dict()
        names = [s.template for s in db.steps[steps:]]
        db.drop_work_tables()
    assert "partition/recursive_profile.sql" not in names
    assert ("partition/group_counts.sql" in names) == (name == "recursive")  # that verdict reads the counts
    for out in (whole, lean):
        out.pop("seconds"), out.pop("queries")
    lean_sa, whole_sa = lean.pop("per_sa"), whole.pop("per_sa")  # two SAs: by name
    assert lean == whole
    assert any(s["recursive"] for s in whole_sa.values())  # there was a profile to leave out
    assert lean_sa == {name: {**s, "recursive": []} for name, s in whole_sa.items()}
