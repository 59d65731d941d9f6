"""The engine tests run against a real PostgreSQL server (the ``pg_server`` fixture in tests/conftest.py);
they carry the ``postgres`` marker, so ``make test`` leaves them to ``make test-postgres``."""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.postgres)
