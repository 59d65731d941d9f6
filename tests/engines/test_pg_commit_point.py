"""Issue 51, class 7 on PostgreSQL: the same real SIGINTs around the release's COMMIT as
tests/integration/test_commit_point.py, each case on its own database (a copy of one template database):
the run's status, the CLI's message and exit code and the release's existence always agree."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database
from tests.engines.pg_server import ROLE
from tests.integration.test_commit_point import ALGORITHMS, EXPECTED, outcome, run_cases


@pytest.fixture(scope="module")
def template(pg_server: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    name = pg_server.new_database("commit_tmpl")
    csv = tmp_path_factory.mktemp("pg_commit") / "census.csv"
    census.generate(400, 7)[["age", "sex", "race", "education", "occupation"]].to_csv(csv, index=False)
    url = pg_server.url(name)
    ldiv_db.load(url, csv, "census")
    db = Database.open(url)
    try:
        taxonomy.build_hierarchy(db, "census", "age", [10, 20, 40])
    finally:
        db.close()
    return str(name)


def _copies(server: Any, template: str, cases: list[str], tag: str) -> list[str]:
    out = []
    with server.admin() as con:
        for i, case in enumerate(cases):
            name = f"{template}_{tag}{i}"
            con.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" OWNER {ROLE}')
            out.append(f"{case}:{server.url(name)}")
    return out


def test_a_ctrl_c_at_each_moment_around_the_commit_on_postgresql(pg_server: Any, template: str) -> None:
    cases = [f"{a}:{hook}:0" for a in ALGORITHMS for hook in EXPECTED]
    got = {
        (c["algorithm"], c["hook"]): outcome(c)
        for c in run_cases(_copies(pg_server, template, cases, "moment"))
    }
    assert got == {(a, hook): want for a in ALGORITHMS for hook, want in EXPECTED.items()}
    print(f"exact moments on PostgreSQL: {dict(Counter(got.values()))}")


def test_a_ctrl_c_from_a_timer_around_the_commit_on_postgresql(pg_server: Any, template: str) -> None:
    cases = [f"mondrian:timer:{d}" for d in (0.0, 0.001, 0.005, 0.02, 0.3)]
    results = run_cases(_copies(pg_server, template, cases, "timer"))
    tally = Counter(outcome(r) for r in results)
    print(f"timer sweep on PostgreSQL: {dict(tally)}")
    assert all(r["releases"] for r in results)  # the timer starts with the COMMIT
