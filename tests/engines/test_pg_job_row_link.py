"""Issue 51, class 8 on PostgreSQL: a job that loads its source and anonymizes it in one transaction
links every published row to a row of the source (a row's id is its ``ctid``, final when written, so the
job loads inside its transaction there). The link is joined back to the source through ldiv_db's own
``rowid`` translation: each group's source rows carry the SA values the release publishes for it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query
from tests.integration.test_job_row_link import DECOMPOSITION, ONE_TABLE, ROWS, _csv


def _job(tmp: Path, url: str, anonymize: str) -> Path:
    (tmp / "zip.csv").write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    job = tmp / "job.toml"
    job.write_text(
        f'database = "{url}"\n[source]\ntable = "people"\nload = "people.csv"\nsep = ";"\n'
        '[hierarchies]\nzip = "zip.csv"\n' + anonymize
    )
    return job


def _groups(db: Database, sql: str) -> dict[int, Counter[tuple[Any, ...]]]:
    out: dict[int, Counter[tuple[Any, ...]]] = {}
    for gid, *values in db.rows(Query("test join-back", sql)):
        out.setdefault(int(gid), Counter())[tuple(values)] += 1
    return out


def _release(job: Path, capsys: pytest.CaptureFixture[str]) -> int:
    code = main(["run", str(job), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return int(json.loads(out)["release"]["release_id"])


def test_a_job_on_postgresql_links_committed_source_rows(
    pg_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = pg_server.url(pg_server.new_database("job"))
    _csv(tmp_path)
    rid = _release(_job(tmp_path, url, ONE_TABLE.format(algorithm="mondrian", options="")), capsys)
    with Database.open(url, mode="read") as db:
        link = f"FROM ldiv.release_row AS r JOIN main.people AS s ON s.rowid = r.source_rowid WHERE r.release_id = {rid}"
        joined = db.rows(Query("test links", f"SELECT count(*) {link}"))
        assert joined == [(ROWS,)]
        by_link = _groups(db, f"SELECT r.group_id, s.disease {link}")
        assert by_link == _groups(db, "SELECT group_id, disease FROM main.people_rel")


def test_a_decomposition_job_on_postgresql_links_committed_source_rows(
    pg_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = pg_server.url(pg_server.new_database("job"))
    _csv(tmp_path)
    rid = _release(_job(tmp_path, url, DECOMPOSITION), capsys)
    with Database.open(url, mode="read") as db:
        link = (
            "FROM ldiv.release_row AS r JOIN ldiv.stream_row AS t ON t.row_key = r.source_rowid "
            "AND t.name = 'main.stream' JOIN main.people AS s ON s.rowid = t.source_rowid "
            f"WHERE r.release_id = {rid}"
        )
        by_link = _groups(db, f"SELECT r.group_id, s.zip, s.sex {link}")
        assert by_link == _groups(db, "SELECT group_id, zip, sex FROM main.stream_qid")
        assert sum(c.total() for c in by_link.values()) == ROWS
