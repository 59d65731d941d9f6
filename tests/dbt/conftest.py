"""The dbt tests run a real dbt (dbt-core, dbt-duckdb, dbt-postgres, pinned in pyproject's `dbt` extra)
from their own venv (`make test-dbt`: dbt-core pins pathspec below what mypy needs); they carry the
``dbt`` marker, so `make test` and `make test-postgres` leave them out. Without dbt they skip, unless
LDIV_REQUIRE_DBT=1 (set by .ci/run): then that is a failure."""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.dbt)
