"""The examples of the pages that declare ``<!-- docs-test: page requires spark -->``, run with
``SPARK_URL`` set to a local session of their own warehouse (each ``ldiv`` of a block is its own
process, so it cannot share the test session's metastore); ``make test-spark``."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from tests.docs import examples
from tests.spark.conftest import _unavailable

pytestmark = pytest.mark.spark

PAGES = [p for p in examples.pages() if p.requires == "spark"]


@pytest.mark.parametrize("page", PAGES, ids=[p.path for p in PAGES])
def test_page_examples_run_on_spark(page: examples.Page, tmp_path: Path) -> None:
    if importlib.util.find_spec("pyspark") is None or shutil.which("java") is None:
        _unavailable("pyspark or java is missing")
    env = examples.workdir(tmp_path)
    env["SPARK_URL"] = f"spark://local[2]?warehouse={tmp_path / 'wh'}&spark.sql.shuffle.partitions=2"
    done, _ = examples.run(page, tmp_path, env)
    assert done
