"""Issue 51, class 8: a job that loads its source and then anonymizes it links every published row to a
committed row of the source. DuckDB gives the rows a transaction writes provisional row ids (from
36028797018960000) until it commits; a job used to load and anonymize in one transaction, so
``ldiv.release_row.source_rowid`` named no row. Checked by joining the private link back to the source:
each group's source rows carry exactly the SA values (and, for Decomposition+, the QI values) the release
publishes for that group, and the counts reconcile. A source with uncommitted rows is refused."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

ROWS = 60
SAS = ("flu", "cold", "asthma", "ulcer", "gastritis")
WORK = ("clerk", "nurse", "cook", "driver")


def _csv(tmp: Path) -> Path:
    """Rows whose SA is not a function of their position, so a link shifted by any offset is caught."""
    lines = ["id;zip;sex;disease;work"]
    for i in range(ROWS):
        lines.append(f"{i};1007{i % 4};{'FM'[(i // 3) % 2]};{SAS[(i * 7 + i // 5) % 5]};{WORK[(i * 3) % 4]}")
    path = tmp / "people.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _job(tmp: Path, anonymize: str) -> Path:
    (tmp / "zip.csv").write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    job = tmp / "job.toml"
    job.write_text(
        'database = "p.duckdb"\n[source]\ntable = "people"\nload = "people.csv"\nsep = ";"\n'
        '[hierarchies]\nzip = "zip.csv"\n' + anonymize
    )
    return job


def _run(job: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["run", str(job), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return dict(json.loads(out)["release"])


def _groups(con: duckdb.DuckDBPyConnection, sql: str) -> dict[int, Counter[tuple[Any, ...]]]:
    out: dict[int, Counter[tuple[Any, ...]]] = {}
    for gid, *values in con.execute(sql).fetchall():
        out.setdefault(int(gid), Counter())[tuple(values)] += 1
    return out


ONE_TABLE = (
    '[anonymize]\nqi = ["zip", "sex"]\nsa = "disease"\nalgorithm = "{algorithm}"\nl = 2\n'
    'output = "people_rel"\n{options}'
)


@pytest.mark.parametrize(
    ("algorithm", "options"),
    [("full-domain", "[anonymize.options]\nlevels = { zip = 1 }\n"), ("mondrian", ""), ("tp+", "")],
)
def test_a_job_links_each_published_row_to_its_committed_source_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], algorithm: str, options: str
) -> None:
    _csv(tmp_path)
    release = _run(_job(tmp_path, ONE_TABLE.format(algorithm=algorithm, options=options)), capsys)
    rid = int(release["release_id"])
    con = duckdb.connect(str(tmp_path / "p.duckdb"), read_only=True)
    try:
        links = con.execute(
            "SELECT count(*), count(s.rowid), count(DISTINCT r.source_rowid), max(r.source_rowid) "
            "FROM ldiv.release_row AS r LEFT JOIN people AS s ON s.rowid = r.source_rowid WHERE r.release_id = ?",
            [rid],
        ).fetchone()
        # every source row linked once, and every link names a row of the source
        assert links is not None and links[:3] == (ROWS, ROWS, ROWS) and links[3] < ROWS, links
        published = con.execute("SELECT count(*) FROM people_rel").fetchone()
        assert published is not None and published[0] == release["rows_published"]
        by_link = _groups(
            con,
            "SELECT r.group_id, s.disease FROM ldiv.release_row AS r JOIN people AS s ON s.rowid = r.source_rowid "
            f"WHERE r.release_id = {rid} AND r.group_id IS NOT NULL",
        )
        by_release = _groups(con, "SELECT group_id, disease FROM people_rel")
        if algorithm == "tp+":  # TP+ suppresses SA values in the release; the rows still match by group size
            assert {g: c.total() for g, c in by_link.items()} == {g: c.total() for g, c in by_release.items()}
        else:
            assert by_link == by_release
        print(f"{algorithm}: {links[0]} links, all to source rows 0..{links[3]}, {len(by_link)} groups match")
    finally:
        con.close()


DECOMPOSITION = (
    '[anonymize]\nqi = ["zip", "sex"]\nsa = ["disease", "work"]\nl = [2, 2]\nalgorithm = "decomposition"\n'
    'output = "stream"\nseed = 3\n[anonymize.options]\nnoise = "random"\nkey = "id"\n'
)


def test_a_decomposition_stream_in_a_job_links_committed_source_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _csv(tmp_path)
    release = _run(_job(tmp_path, DECOMPOSITION), capsys)
    rid = int(release["release_id"])
    con = duckdb.connect(str(tmp_path / "p.duckdb"), read_only=True)
    try:
        stream = con.execute(
            "SELECT count(*), count(s.rowid), max(t.source_rowid) FROM ldiv.stream_row AS t "
            "LEFT JOIN people AS s ON s.rowid = t.source_rowid WHERE t.name = 'main.stream'"
        ).fetchone()
        assert stream is not None and stream[:2] == (ROWS, ROWS) and stream[2] < ROWS, stream
        link = (
            "FROM ldiv.release_row AS r JOIN ldiv.stream_row AS t ON t.row_key = r.source_rowid "
            f"AND t.name = 'main.stream' JOIN people AS s ON s.rowid = t.source_rowid WHERE r.release_id = {rid}"
        )
        by_link = _groups(con, f"SELECT r.group_id, s.zip, s.sex {link}")
        by_release = _groups(con, "SELECT group_id, zip, sex FROM stream_qid")
        assert by_link == by_release and sum(c.total() for c in by_link.values()) == release["rows_published"]
        primary_link = _groups(con, f"SELECT r.group_id, s.disease {link}")
        primary_release = _groups(con, "SELECT group_id, disease FROM stream_sa")
        assert primary_link == primary_release  # noise replaces copies of the other SAs only
        print(f"decomposition: {stream[0]} stream rows, {len(by_link)} groups match their source rows")
    finally:
        con.close()


def test_a_source_with_uncommitted_rows_is_refused(tmp_path: Path) -> None:
    """The rule at its one gate (catalog.require_row_ids): an API caller anonymizing inside its own open
    transaction, over rows it has not committed, gets a clear refusal and nothing is written."""
    con = duckdb.connect(str(tmp_path / "u.duckdb"))
    db = Database.open(con)
    con.execute("BEGIN TRANSACTION")
    con.execute(
        "CREATE TABLE t AS SELECT i AS id, ['F', 'M'][i % 2 + 1] AS sex, 'v' || (i % 3) AS sa FROM range(30) r(i)"
    )
    with pytest.raises(BadInput, match="not committed"):
        ldiv_db.anonymize(db, "t", ["sex"], "sa", algorithm="mondrian", l=2, output="o")
    con.execute("ROLLBACK")
    con.close()
