"""A verdict shown is a verdict that still holds (issue 51, class 6; ldiv_db/core/release_state.py).

After a hand-made change to a release's table — one SA value updated, a row deleted or inserted, a
column added, the table dropped — ``ldiv releases`` and ``ldiv report`` (text, --json and the page's
headline) say the table changed or is missing and never show the recorded verdict; an untouched release
still says verified. The reads write nothing (checked on a read-only file). The helpers take a DuckDB
path or a PostgreSQL URL: tests/engines/test_pg_verdict_state.py runs the same cases on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from ldiv_db import api
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from tests.integration.frames import make_table
from tests.integration.test_decomposition import synthetic

ANON = ["--qi", "age,sex", "--sa", "disease", "--l", "2", "--algorithm", "mondrian", "--quiet"]

# each change made by hand to the release table `rel`, and what the reads must then say
CHANGES = {
    "update_one_sa_value": (
        "UPDATE main.rel SET disease = 'z' WHERE age = (SELECT min(age) FROM main.rel)",
        "changed",
    ),
    "update_every_sa_value": ("UPDATE main.rel SET disease = 'flu'", "changed"),
    "delete_rows": ("DELETE FROM main.rel WHERE age = (SELECT max(age) FROM main.rel)", "changed"),
    "insert_a_row": ("INSERT INTO main.rel SELECT * FROM main.rel LIMIT 1", "changed"),
    "add_a_column": ("ALTER TABLE main.rel ADD COLUMN note VARCHAR", "changed"),
    "drop_the_sa_column": ("ALTER TABLE main.rel DROP COLUMN disease", "changed"),
    "rename_the_sa_column": ("ALTER TABLE main.rel RENAME COLUMN disease TO diagnosis", "changed"),
    # the same rows under swapped names: a row hash alone does not see it, the report would read sex as SA
    "swap_the_sa_and_a_qi_names": (
        "ALTER TABLE main.rel RENAME COLUMN disease TO tmp; ALTER TABLE main.rel RENAME COLUMN sex TO disease; "
        "ALTER TABLE main.rel RENAME COLUMN tmp TO sex",
        "changed",
    ),
    "drop_the_table": ("DROP TABLE main.rel", "missing"),
}
WORD = {"changed": "CHANGED since verification", "missing": "MISSING"}


def cli(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def people_csv(folder: Path) -> Path:
    """40 people: ages 20..59, two sexes, four diseases."""
    path = folder / "people.csv"
    rows = [f"{20 + i},{'FM'[i % 2]},{'abcd'[i % 4]}" for i in range(40)]
    path.write_text("age,sex,disease\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def world(capsys: pytest.CaptureFixture[str], target: str, folder: Path) -> str:
    """``target`` with the source ``people`` and two untouched releases ``rel`` and ``other``."""
    assert cli(capsys, "load", target, people_csv(folder), "--table", "people")[0] == 0
    for out in ("rel", "other"):
        code, _, err = cli(capsys, "anonymize", target, "--table", "people", *ANON, "--output", out)
        assert code == 0, err
    return target


def execute(target: str, sql: str) -> None:
    db = Database.open(target)
    try:
        db.execute_script("the test's change", sql)
    finally:
        db.close()


def listed(
    capsys: pytest.CaptureFixture[str], target: str
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """``ldiv releases``: the JSON row and the text line of each current release, by name."""
    code, out, err = cli(capsys, "releases", target, "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)["releases"] if r["superseded_by"] is None}
    code, out, err = cli(capsys, "releases", target)
    assert code == 0, err
    lines = {line.split()[1]: line for line in out.splitlines() if line.strip()}
    return rows, lines


def reported(capsys: pytest.CaptureFixture[str], target: str, release: str, page: Path) -> dict[str, Any]:
    """``ldiv report`` on one release: its text line, JSON summary and the page's headline and figures."""
    code, text, err = cli(capsys, "report", target, "--release", release, "--html", page)
    assert code == 0, err
    code, out, err = cli(capsys, "report", target, "--release", release, "--json")
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    heads = re.findall(r'<div class="verdict[^"]*"[^>]*>[^<]*</div>', html)
    assert len(heads) == 1, heads
    figures = dict(re.findall(r'data-key="([a-z_]+)" data-value="([^"]*)"', html))
    return {"text": text, "json": json.loads(out)["releases"][0], "headline": heads[0], "figures": figures}


def assert_not_verified(seen: dict[str, Any], state: str) -> None:
    """The report says ``state`` in every form and shows no verified verdict anywhere."""
    line = next(x for x in seen["text"].splitlines() if x.startswith("  main.rel:"))
    assert WORD[state] in line and "✔" not in line, line
    assert seen["json"]["table_state"] == state and seen["json"]["verified"] is None, seen["json"]
    head = seen["headline"]
    assert f'data-state="{state}"' in head and 'class="verdict bad"' in head, head
    assert "✔" not in head and "holds —" not in head and WORD[state] in head, head


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------- DuckDB
@pytest.fixture(scope="session")
def _duck_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The DuckDB world, built once per test process (its commands' output discarded)."""
    folder = tmp_path_factory.mktemp("verdict_state")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["load", str(folder / "w.duckdb"), str(people_csv(folder)), "--table", "people"]) == 0
        for out in ("rel", "other"):
            args = ["anonymize", str(folder / "w.duckdb"), "--table", "people", *ANON, "--output", out]
            assert main(args) == 0
    return folder


@pytest.fixture
def duck(_duck_world: Path, tmp_path: Path) -> str:
    """A fresh copy of the DuckDB world in the test's folder."""
    for f in _duck_world.iterdir():
        shutil.copyfile(f, tmp_path / f.name)
    return str(tmp_path / "w.duckdb")


def test_an_untouched_release_says_verified(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, lines = listed(capsys, duck)
    assert rows["main.rel"]["table_state"] == "intact" and rows["main.rel"]["verified"] is True
    assert " verified (" in lines["main.rel"]
    seen = reported(capsys, duck, "rel", tmp_path / "r.html")
    assert seen["json"]["table_state"] == "intact" and seen["json"]["verified"] is True
    assert 'class="verdict ok"' in seen["headline"] and "✔" in seen["headline"]
    assert "✔" in seen["text"] and "unchanged since" in seen["text"]


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_release_never_shows_its_verdict(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    sql, state = CHANGES[change]
    execute(duck, sql)
    rows, lines = listed(capsys, duck)
    row = rows["main.rel"]
    assert row["table_state"] == state and row["verified"] is None and row["verified_when_written"] is True
    assert WORD[state] in lines["main.rel"] and " verified (" not in lines["main.rel"]
    # the other release is untouched: the check is per release, not per database
    assert rows["main.other"]["table_state"] == "intact" and " verified (" in lines["main.other"]
    seen = reported(capsys, duck, "rel", tmp_path / "r.html")
    assert_not_verified(seen, state)
    assert (
        api.releases(duck).to_dict()["releases"][1]["table_state"] == state
    )  # newest first: rel, then other


def test_the_page_shows_the_changed_tables_own_figures(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: every SA value set to one value. Each class then holds one disease, so the
    page's own figures are distinct l 1 — under a headline that no longer claims the model holds."""
    execute(duck, CHANGES["update_every_sa_value"][0])
    seen = reported(capsys, duck, "rel", tmp_path / "r.html")
    assert seen["figures"]["distinct_l"] == "1"
    assert_not_verified(seen, "changed")


def test_reads_check_a_read_only_file_and_write_nothing(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(duck, CHANGES["delete_rows"][0])
    db = Database.open(duck)
    left = int(db.con.execute("SELECT count(*) FROM rel").fetchall()[0][0])
    db.close()
    assert left < 40
    path = Path(duck)
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        before = sha256(path)
        rows, _ = listed(capsys, duck)
        assert (
            rows["main.rel"]["table_state"] == "changed" and f"{left} now" in rows["main.rel"]["table_detail"]
        )
        assert rows["main.other"]["table_state"] == "intact"
        assert_not_verified(reported(capsys, duck, "rel", tmp_path / "r.html"), "changed")
        assert sha256(path) == before
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_a_release_recorded_before_digests_is_unconfirmed(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Migration 0003 recorded the tables of earlier releases with their row count and no digest: such a
    table cannot be confirmed unchanged, so no verdict is shown; a row count that differs is a change."""
    execute(duck, "UPDATE ldiv.release_table SET digest = NULL WHERE table_name = 'rel'")
    rows, lines = listed(capsys, duck)
    assert rows["main.rel"]["table_state"] == "unknown" and "UNCONFIRMED" in lines["main.rel"]
    seen = reported(capsys, duck, "rel", tmp_path / "r.html")
    assert seen["json"]["table_state"] == "unknown" and seen["json"]["verified"] is None
    assert 'data-state="unknown"' in seen["headline"] and "✔" not in seen["headline"]
    execute(duck, CHANGES["delete_rows"][0])
    assert listed(capsys, duck)[0]["main.rel"]["table_state"] == "changed"


def test_a_digest_recorded_before_column_names_counted_still_reads_intact(
    duck: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Releases recorded before the digest carried the column names keep reading intact while their
    rows are unchanged (the names are then not compared); their rows are still checked."""
    execute(duck, "UPDATE ldiv.release_table SET digest = split_part(digest, ';columns:', 1)")
    rows, _ = listed(capsys, duck)
    assert rows["main.rel"]["table_state"] == "intact" and rows["main.other"]["table_state"] == "intact"
    execute(duck, CHANGES["update_one_sa_value"][0])
    assert listed(capsys, duck)[0]["main.rel"]["table_state"] == "changed"


def test_a_replaced_release_is_superseded_and_the_new_one_verified(
    duck: str, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(duck, CHANGES["drop_the_table"][0])
    code, _, err = cli(capsys, "anonymize", duck, "--table", "people", *ANON, "--output", "rel")
    assert code == 0, err
    code, out, _ = cli(capsys, "releases", duck, "--json")
    rel = [r for r in json.loads(out)["releases"] if r["name"] == "main.rel"]
    assert [r["table_state"] for r in rel] == ["intact", "superseded"]
    assert [r["verified"] for r in rel] == [True, None]


def test_compare_says_an_added_release_changed(
    duck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(duck, CHANGES["update_one_sa_value"][0])
    args = ["compare", duck, "--table", "people", "--qi", "age,sex", "--sa", "disease", "--l", "2"]
    args += ["--algorithms", "mondrian", "--release", "rel", "--release", "other", "--quiet"]
    code, out, err = cli(capsys, *args, "--json", "--html", tmp_path / "c.html")
    assert code == 0, err
    entries = {e["label"]: e for e in json.loads(out)["entries"]}
    assert entries["rel"]["table_state"] == "changed" and entries["rel"]["verified"] is None
    assert entries["other"]["table_state"] == "intact" and entries["other"]["verified"] is True
    assert any("CHANGED since verification" in n and n.startswith("rel:") for n in json.loads(out)["notes"])
    html = (tmp_path / "c.html").read_text(encoding="utf-8")
    row = re.search(r'<tr data-label="rel".*?</tr>', html, re.S)
    assert row is not None and 'data-state="changed"' in row.group(0) and "✔" not in row.group(0)
    side = re.findall(r'<div class="verdict[^"]*"[^>]*>[^<]*</div>', html)
    changed = [h for h in side if 'data-state="changed"' in h]
    assert len(changed) == 1 and "✔" not in changed[0] and "CHANGED since verification" in changed[0]
    assert sum('data-state="intact"' in h and "✔" in h for h in side) == 2  # other, and mondrian run now
    code, out, _ = cli(capsys, *args)
    assert code == 0 and "CHANGED since verification" in out


def test_compare_refuses_an_added_release_whose_table_is_missing(
    duck: str, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(duck, "DROP TABLE other")
    code, _, err = cli(
        capsys, "compare", duck, "--table", "people", "--qi", "age,sex", "--sa", "disease", "--l", "2",
        "--algorithms", "mondrian", "--release", "other", "--quiet",
    )  # fmt: skip
    assert code == 2 and "other" in err


# ---------------------------------------------------------------------------- Decomposition+ streams
def test_a_stream_reads_intact_after_appends_and_every_table_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.duckdb"
    db = Database.open(path)
    full = synthetic(200, 11)
    make_table(db, "first", full.iloc[:120].reset_index(drop=True))
    make_table(db, "more", full.iloc[120:].reset_index(drop=True))
    db.close()
    args = [
        "--qi",
        "zip,age",
        "--sa",
        "job,pay",
        "--algorithm",
        "decomposition",
        "--l",
        "3,3",
        "--noise",
        "random",
    ]
    args += ["--seed", "1", "--quiet"]
    code, _, err = cli(capsys, "anonymize", path, "--table", "first", *args, "--output", "s")
    assert code == 0, err
    code, _, err = cli(capsys, "release", "append", path, "--release", "s", "--from", "more", "--quiet")
    assert code == 0, err
    code, out, _ = cli(capsys, "releases", path, "--json")
    assert [r["table_state"] for r in json.loads(out)["releases"]] == ["intact", "superseded"]
    code, out, _ = cli(capsys, "release", "history", path, "--release", "s", "--json")
    hist = json.loads(out)["releases"]
    assert [(r["table_state"], r["verified"]) for r in hist] == [("superseded", None), ("intact", True)]
    code, out, _ = cli(capsys, "release", "history", path, "--release", "s")
    assert "was yes" in out and " yes " in out
    seen = reported(capsys, str(path), "s", tmp_path / "s.html")
    assert seen["json"]["table_state"] == "intact" and "✔" in seen["headline"]
    for table, state in (("s_marginals", "changed"), ("s_qid", "missing")):  # the third table, then the first
        sql = f"DELETE FROM {table} WHERE rowid = 0" if state == "changed" else f"DROP TABLE {table}"
        execute(str(path), sql)
        code, out, _ = cli(capsys, "releases", path, "--json")
        now = json.loads(out)["releases"][0]
        assert now["table_state"] == state and table in now["table_detail"] and now["verified"] is None
        code, out, _ = cli(capsys, "release", "history", path, "--release", "s")
        assert state.upper() in out
        code, out, _ = cli(capsys, "report", path, "--release", "s", "--json", "--html", tmp_path / "s.html")
        assert code == 0 and json.loads(out)["releases"][0]["table_state"] == state
        head = re.findall(r'<div class="verdict[^"]*"[^>]*>[^<]*</div>', (tmp_path / "s.html").read_text())
        assert len(head) == 1 and f'data-state="{state}"' in head[0] and "✔" not in head[0]
