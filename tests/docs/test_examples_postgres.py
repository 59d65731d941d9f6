"""The examples of the pages that declare ``<!-- docs-test: page requires postgres -->`` (the PostgreSQL
how-to), run against a fresh database on the throw-away server (``PGURL``); ``make test-postgres``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs import examples

pytestmark = pytest.mark.postgres

PAGES = [p for p in examples.pages() if p.requires == "postgres"]


@pytest.mark.parametrize("page", PAGES, ids=[p.path for p in PAGES])
def test_page_examples_run_on_postgres(
    page: examples.Page, tmp_path: Path, pg_url: str, record_property: pytest.RecordProperty
) -> None:
    env = examples.workdir(tmp_path)
    env["PGURL"] = pg_url
    done, skipped = examples.run(page, tmp_path, env)
    record_property("docs_blocks_run", len(done))
    record_property("docs_blocks_skipped", [f"{b.where} ({b.skip})" for b in skipped])
    assert done


def test_the_postgresql_page_is_run_here() -> None:
    assert "docs/how-to/postgresql.md" in [p.path for p in PAGES]
