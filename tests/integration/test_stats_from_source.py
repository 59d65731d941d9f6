"""An engine that builds a check's group statistics straight from the source (``stats_from_source``:
partition/source_stats.sql, no histogram table, the counts kept as lists) gives exactly the check the
histogram gives: every statistic, the recursive profile, the verdict and the worst groups with their keys,
split into parts or whole. PostgreSQL takes that path; here DuckDB is made to take it, on the same tables
(tests/engines/test_pg_check_fast.py compares the two on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.core.inputs import resolve_inputs
from ldiv_db.db import Database
from ldiv_db.db.duckdb.engine import DuckDBDatabase
from ldiv_db.errors import InternalError
from ldiv_db.privacy.spec import model_spec
from ldiv_db.verify.check import evaluate
from tests.integration.test_check_split import MODELS, _table, tables


def _check(
    path: Path, model: tuple[str | None, dict[str, Any]], parts: int | None, *, from_source: bool, **kw: Any
) -> dict[str, Any]:
    name, options = model
    sa = kw.pop("sa", ["s1"])
    qi = kw.pop("qi", ["q 1", "q2"])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(DuckDBDatabase, "stats_from_source", from_source)
        with Database.open(str(path), mode="read") as db:
            inputs = resolve_inputs(db, "t 1", qi, sa, null_as_value=True, **kw)
            privacy = model_spec(name, None, options).build(inputs)
            out = evaluate(
                db, inputs, privacy, null_as_value=True, worst=4, split=True, parts=parts
            ).to_dict()
            db.drop_work_tables()
    out.pop("seconds")
    out.pop("queries")
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=tables(),
    model=st.sampled_from(MODELS),
    parts=st.sampled_from([None, 2, 3]),
    two_sa=st.booleans(),
    three_keys=st.booleans(),
)
def test_statistics_from_the_source_equal_the_histograms(
    tmp_path: Path, rows: list[dict[str, Any]], model: Any, parts: int | None, two_sa: bool, three_keys: bool
) -> None:
    path = tmp_path / "t.duckdb"
    _table(path, rows)
    kw: dict[str, Any] = {"sa": ["s1", "s2"] if two_sa else ["s1"]}
    if three_keys:
        kw["qi"] = ["q 1", "q2", "q3"]
    assert _check(path, model, parts, from_source=True, **kw) == _check(
        path, model, parts, from_source=False, **kw
    )


def _profiled_rows() -> list[dict[str, Any]]:
    """Twelve groups of two or three values in different skews (a recursive profile to compute) and one
    group of a single value."""
    rows = []
    for j in range(12):
        counts = {"flu": j + 1, "HIV": 1 + j % 3, **({"x": 1} if j % 2 else {})}
        rows += [
            {"q 1": j, "q2": "a", "s1": v, "s2": "y", "g": 0} for v, n in counts.items() for _ in range(n)
        ]
    rows += [{"q 1": 99, "q2": "b", "s1": "flu", "s2": "y", "g": 0}] * 3
    return rows


def test_the_recursive_profile_reads_the_kept_counts(tmp_path: Path) -> None:
    path = tmp_path / "profile.duckdb"
    rows = [r for r in _profiled_rows() if r["q 1"] != 99]  # every group with two values or more
    _table(path, rows)
    lean = _check(path, ("recursive", {"l": 2, "c": 3}), None, from_source=True)
    assert lean["recursive"] == [{"l": 2, "c_above": "7"}]
    assert lean == _check(path, ("recursive", {"l": 2, "c": 3}), None, from_source=False)


@pytest.mark.parametrize("l", [2, 3, 4])
def test_the_recursive_verdict_counts_the_ones_it_keeps_apart(tmp_path: Path, l: int) -> None:
    """The statistics from the source list a group's counts above 1 and count its ones apart: groups of
    only ones ([1, 1] and [1, 1, 1]), of ones after larger counts ([2, 2, 1], [3, 1, 1]) and of no ones
    give the histogram's verdicts, worst groups and profile at every l."""
    path = tmp_path / f"ones_{l}.duckdb"
    shapes = [[1, 1], [1, 1, 1], [2, 2, 1], [3, 1, 1], [4, 2], [1, 1, 1, 1], [5, 1, 1, 1]]
    rows = [
        {"q 1": j, "q2": "a", "s1": f"v{k}", "s2": "y", "g": 0}
        for j, shape in enumerate(shapes)
        for k, n in enumerate(shape)
        for _ in range(n)
    ]
    _table(path, rows)
    model = ("recursive", {"l": l, "c": "3/2"})
    lean = _check(path, model, None, from_source=True)
    assert lean == _check(path, model, None, from_source=False)
    assert lean["satisfied"] is False and lean["violating_classes"] > 0


def test_a_model_that_reads_the_histogram_gets_it_stored(tmp_path: Path) -> None:
    """The (l,α) models read the histogram beside the statistics: it is stored when first asked for."""
    path = tmp_path / "alpha.duckdb"
    _table(path, _profiled_rows())
    model = ("recursive-alpha", {"l": 2, "c": 3, "alpha": 1, "categories": {"flu": 1, "HIV": 1, "x": 2}})
    stored: list[bool] = []
    histogram = SqlEvaluator._histogram

    def spy(self: SqlEvaluator) -> None:
        stored.append(self._from_source)
        histogram(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SqlEvaluator, "_histogram", spy)
        lean = _check(path, model, None, from_source=True)
    assert stored == [True]  # built from the source, then the histogram once, for the model
    assert lean == _check(path, model, None, from_source=False)


@pytest.mark.parametrize("model", [("recursive", {"l": 2, "c": 3}), (None, {})])
def test_a_collision_found_in_the_shapes_rebuilds_with_exact_ids(
    tmp_path: Path, model: tuple[str | None, dict[str, Any]]
) -> None:
    """With a model the collision check is the statement that reads the verdict (the model is applied
    again on exact ids); without one, the shapes' statement alone. On DuckDB that statement computes the
    statistics itself (partition/source_shapes.sql); the rebuild stores them with exact ids."""
    path = tmp_path / "collide.duckdb"
    _table(path, _profiled_rows())
    rows = Database.rows
    seen: list[SqlEvaluator] = []
    judge, build, summary = SqlEvaluator.judge, SqlEvaluator.build, SqlEvaluator.summary
    shapes = ("partition/shapes.sql", "partition/source_shapes.sql")

    def collide_once(self: Database, query: Any, **kw: Any) -> list[tuple[Any, ...]]:
        out = rows(self, query, **kw)
        if query.name in shapes and len(seen) == 1 and not seen[0].exact_ids:
            # as if two key tuples shared a hashed id
            out = [(*r[:7], 1, *r[8:]) if r[0] == 0 else r for r in out]
        return out

    def remember(step: Any) -> Any:
        def spy(self: SqlEvaluator, *a: Any) -> Any:
            if self not in seen:
                seen.append(self)
            return step(self, *a)

        return spy

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Database, "rows", collide_once)
        for name, step in (("judge", judge), ("build", build), ("summary", summary)):
            mp.setattr(SqlEvaluator, name, remember(step))
        lean = _check(path, model, None, from_source=True)
    assert seen and seen[0].exact_ids and not seen[0]._from_source
    whole = _check(path, model, None, from_source=False)
    named = [(w["size"], w["key"]) for w in whole.get("worst", [])]
    assert [(w["size"], w["key"]) for w in lean.pop("worst", [])] == named  # exact ids, not hashed ones
    assert lean == {k: v for k, v in whole.items() if k != "worst"}


def test_an_inline_verdict_reads_the_statistics_only(tmp_path: Path) -> None:
    """A verdict read inside the statement that computes the statistics (``stats`` names its CTE there)
    that asked for a stored table would create one under the CTE's name: it is refused, nothing is
    created, and the evaluator judges as before afterwards."""
    path = tmp_path / "inline.duckdb"
    _table(path, _profiled_rows())

    class ReadsTheHistogram:
        name = "reads-histogram"

        def apply(self, ev: SqlEvaluator, target: Any) -> None:
            raise AssertionError("not reached")

        def verdict_sql(self, ev: SqlEvaluator) -> Any:
            return ev.hist  # a stored table

    with Database.open(str(path), mode="read") as db:
        inputs = resolve_inputs(db, "t 1", ["q 1", "q2"], ["s1"], null_as_value=True)
        ev = SqlEvaluator(
            db, inputs.table.ref, [c.ident for c in inputs.qi], [c.ident for c in inputs.sa],
            null_as_value=True, stats_only=True, rows=inputs.rows,
        )  # fmt: skip
        with pytest.raises(InternalError, match="reads the statistics only"):
            ev.judge(ReadsTheHistogram())
        made = db.con.execute("SELECT table_name FROM duckdb_tables()").fetchall()  # type: ignore[attr-defined]
        assert ("stats",) not in made
        distinct = model_spec("distinct", None, {"l": 2}).build(inputs)
        assert distinct is not None
        assert (
            ev.judge(distinct).violating_groups
            == evaluate(db, inputs, distinct, null_as_value=True).violating_groups
        )
