from __future__ import annotations

import pytest

from tests.report_env import ReportEnv, build


@pytest.fixture(scope="session")
def report_env(tmp_path_factory: pytest.TempPathFactory) -> ReportEnv:
    """The report test database and its two pages (built once per session)."""
    return build(tmp_path_factory.mktemp("report"))
