"""A local Spark session for the Spark engine tests (``make test-spark``; each module is marked ``spark``).

The session is ``local[2]`` with a temporary warehouse and metastore, two shuffle partitions and the UI
off. Without pyspark or Java the tests skip with the reason, unless ``LDIV_REQUIRE_SPARK=1`` (set by
``.ci/run``): then that is a failure.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _unavailable(reason: str) -> None:
    if os.environ.get("LDIV_REQUIRE_SPARK") == "1":
        pytest.fail(f"Spark required but not available: {reason}")
    pytest.skip(f"Spark not available: {reason}")


def statements_sent(session: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement ``session`` is sent from now on (the calling test only), blanks folded."""
    sent: list[str] = []
    real = type(session).sql

    def spy(self, query, args=None, **kwargs):  # type: ignore[no-untyped-def]
        sent.append(" ".join(query.split()))
        return real(self, query, args, **kwargs)

    monkeypatch.setattr(type(session), "sql", spy)
    return sent


@pytest.fixture(scope="session")
def spark_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("spark")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def spark_url(spark_warehouse: Path) -> str:
    """``spark://local[2]`` with this session's warehouse: the URL every Spark test opens."""
    # two shuffle partitions: the fixtures are a few rows, and every task costs start-up time
    return f"spark://local[2]?warehouse={spark_warehouse / 'warehouse'}&spark.sql.shuffle.partitions=2"


@pytest.fixture(scope="session")
def spark_session(spark_url: str) -> Iterator[object]:
    """The one local Spark session of the test run (start-up measured in ``spark_startup_seconds``)."""
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:
        _unavailable(f"pyspark is not installed ({exc}); pip install 'ldiv_db[spark]'")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _unavailable("no Java runtime (Debian: apt-get install openjdk-17-jre-headless)")
    from ldiv_db.db.spark.engine import session_for

    t0 = time.perf_counter()
    try:
        session = session_for(spark_url)
    except Exception as exc:  # the JVM did not start: a reason to skip, not a test failure
        _unavailable(f"{type(exc).__name__}: {exc}")
    os.environ["LDIV_SPARK_STARTUP_SECONDS"] = f"{time.perf_counter() - t0:.1f}"
    yield session
    from ldiv_db.db.spark.engine import stop_sessions

    stop_sessions()
