"""The SQL functions of ``ldiv sql install`` against ``ldiv check --json`` on one database, shared by the
DuckDB tests (tests/integration/test_sql_functions.py) and the PostgreSQL ones (tests/engines/
test_pg_sql_functions.py). ``ldiv check --null-as-value`` is the reference: the functions' classes are
the QI values with NULL a value of its own."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import pytest

from ldiv_db.cli.main import main

Query = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]

# (model, ldiv check's flags, the function's n): every model the functions express
MODELS = [
    ("k-anonymity", ["--k", "3"], 3),
    ("distinct", ["--l", "3"], 3),
    ("entropy", ["--l", "3"], 3),
    ("frequency", ["--l", "2"], 2),
    ("unique-distinct", ["--l", "2"], 2),
    ("lplus", ["--l", "3"], 3),
]


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    capsys.readouterr()
    code = main([*args, "--json"])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return json.loads(out)  # type: ignore[no-any-return]


def check_json(
    capsys: pytest.CaptureFixture[str], db: str, table: str, qi: Sequence[str], sa: str, *model: str
) -> dict[str, Any]:
    return cli_json(
        capsys, "check", db, "--table", table, "--qi", ",".join(qi), "--sa", sa, "--null-as-value",
        "--worst", "1000000", *model,
    )  # fmt: skip


def assert_statistics(query: Query, capsys: Any, db: str, table: str, qi: Sequence[str], sa: str) -> None:
    """ldiv.l_diversity's row equals ldiv check's statistics."""
    want = check_json(capsys, db, table, qi, sa)
    rows = query("SELECT * FROM ldiv.l_diversity({table}, {qi}, {sa})", [table, list(qi), sa])
    assert len(rows) == 1
    classes, n, k, distinct_l, entropy_l, frequency_l = rows[0]
    assert (classes, n, k, distinct_l) == (want["classes"], want["rows"], want["k"], want["distinct_l"])
    assert entropy_l == pytest.approx(want["entropy_l"], rel=1e-9)
    assert frequency_l == pytest.approx(want["frequency_l"], rel=1e-12)


def _keys(rows: list[tuple[Any, ...]], qi: Sequence[str], as_json: bool) -> list[tuple[Any, ...]]:
    """(key values..., size) of each violating class the function returned."""
    if as_json:  # PostgreSQL: the class as a JSON object, then class_size
        return sorted(((*(r[0][c] for c in qi), r[1]) for r in rows), key=repr)
    width = len(qi)
    return sorted(((*r[:width], r[width]) for r in rows), key=repr)


def _expected(verdict: dict[str, Any], qi: Sequence[str]) -> list[tuple[Any, ...]]:
    return sorted(((*(w["key"][c] for c in qi), w["size"]) for w in verdict["worst"]), key=repr)


def assert_violations(
    query: Query, capsys: Any, db: str, table: str, qi: Sequence[str], sa: str, *, as_json: bool
) -> int:
    """For every model the functions express: the same violating classes as ldiv check lists. Returns
    how many models had violations (a test that compared empty sets only would prove little)."""
    violated = 0
    for model, flags, n in MODELS:
        want = check_json(capsys, db, table, qi, sa, "--model", model, *flags)
        rows = query(
            "SELECT * FROM ldiv.violations({table}, {qi}, {sa}, {model}, {n})",
            [table, list(qi), sa, model, n],
        )
        assert len(rows) == want["violating_classes"], model
        assert _keys(rows, qi, as_json) == _expected(want, qi), model
        assert sum(r[1] if as_json else r[len(qi)] for r in rows) == want["violating_rows"], model
        violated += bool(rows)
    for l, c in ((2, Decimal("1.5")), (3, Decimal(2)), (3, Decimal("3.25"))):
        want = check_json(capsys, db, table, qi, sa, "--model", "recursive", "--l", str(l), "--c", str(c))
        rows = query(
            "SELECT * FROM ldiv.recursive_violations({table}, {qi}, {sa}, {l}, {c})",
            [table, list(qi), sa, l, c],
        )
        assert _keys(rows, qi, as_json) == _expected(want, qi), (l, c)
        violated += bool(rows)
    return violated
