"""A release stream never publishes a source row twice (issue 11): rows are keyed by ``--key`` or by a
content fingerprint, and a batch that repeats a key (of the stream or inside itself) or has a NULL key is
refused before anything is written. Every case runs through ``ldiv_db.cli.main``; the expected counts
are derived independently in pandas."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures import census
from ldiv_db.cli.main import main
from ldiv_db.db import Database

QI = "age,sex,race"
SA = "occupation,workclass"


def _db(tmp_path: Path, n: int = 900) -> Path:
    path = tmp_path / "s.duckdb"
    df = census.generate(n, seed=7)
    df.insert(0, "id", range(1000, 1000 + n))
    db = Database.open(path)
    db.con.register("df", df)
    db.con.execute("CREATE TABLE people AS SELECT * FROM df")
    db.con.execute("CREATE TABLE first AS SELECT * FROM people WHERE id < 1400")
    db.con.execute("CREATE TABLE batch1 AS SELECT * FROM people WHERE id >= 1400 AND id < 1650")
    db.con.execute("CREATE TABLE batch2 AS SELECT * FROM people WHERE id >= 1650")
    db.close()
    return path


def _first(path: Path, *extra: str) -> int:
    args = ["anonymize", str(path), "--table", "first", "--qi", QI, "--sa", SA, "--l", "3,2", "--algorithm"]
    args += ["decomposition", "--output", "st", "--noise", "random", "--seed", "1", "--quiet"]
    return main([*args, *extra])


def _append(path: Path, table: str, *extra: str) -> int:
    return main(["release", "append", str(path), "--release", "st", "--from", table, "--quiet", *extra])


def _state(path: Path) -> Any:
    """Everything a refused append must leave unchanged: the release tables' contents, the ldiv records."""
    db = Database.open(path)
    try:
        out = {}
        for t in ("st_qid", "st_sa", "st_marginals", "ldiv.release", "ldiv.release_row", "ldiv.stream_row"):
            out[t] = db.con.execute(f"SELECT count(*), sum(hash(COLUMNS(*))) FROM {t}").fetchall()
        for t in ('ldiv."keys:main.st"', 'ldiv."retained:main.st"', "ldiv.stream"):
            out[t] = db.con.execute(f"SELECT count(*), sum(hash(COLUMNS(*))) FROM {t}").fetchall()
        return out
    finally:
        db.close()


def _table(path: Path, sql: str) -> pd.DataFrame:
    db = Database.open(path)
    try:
        return db.con.execute(sql).df()
    finally:
        db.close()


def _groups_per_person(path: Path) -> pd.Series:
    """For every person id, the number of distinct groups holding one of their rows over ALL releases of
    the stream (through the private link ldiv.release_row -> ldiv.stream_row -> the source tables)."""
    links = _table(
        path,
        """SELECT sr.source, sr.source_rowid, rr.group_id, rr.release_id
           FROM ldiv.release_row rr JOIN ldiv.stream_row sr ON sr.row_key = rr.source_rowid AND sr.name = 'main.st'
           JOIN ldiv.release r ON r.release_id = rr.release_id AND r.name = 'main.st'
           WHERE rr.group_id IS NOT NULL""",
    )
    ids = []
    for source, part in links.groupby("source"):
        rows = _table(path, f"SELECT rowid AS source_rowid, id FROM {source}")
        ids.append(part.merge(rows, on="source_rowid"))
    merged = pd.concat(ids)
    assert len(merged) == len(links)
    return merged.groupby("id")["group_id"].nunique()


def test_reappending_a_batch_is_refused_and_no_row_is_in_two_groups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _db(tmp_path)
    assert _first(path, "--key", "id") == 0
    assert _append(path, "batch1", "--key", "ID") == 0  # the same key, any spelling
    capsys.readouterr()
    before = _state(path)
    code = _append(path, "batch1")
    err = capsys.readouterr().err
    assert code == 2
    assert "250 row(s) the stream already received (published or kept back)" in err
    assert "row 1 (id=1400), row 2 (id=1401), row 3 (id=1402), row 4 (id=1403), row 5 (id=1404), ..." in err
    assert "nothing was written" in err and "internal error" not in err
    assert _state(path) == before
    assert _append(path, "batch2") == 0
    per_person = _groups_per_person(path)
    published = _table(path, "SELECT count(*) AS n FROM st_qid")["n"][0]
    assert len(per_person) == published and (per_person == 1).all()


def test_partial_overlap_is_refused_with_the_exact_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _db(tmp_path)
    assert _first(path, "--key", "id") == 0
    db = Database.open(path)
    # 40 new rows, then 17 rows of the first release (published or kept back), in a shuffled order
    db.con.execute(
        "CREATE TABLE mixed AS SELECT * FROM (SELECT * FROM batch1 WHERE id < 1440 UNION ALL "
        "SELECT * FROM first WHERE id % 23 = 0) ORDER BY hash(id)"
    )
    mixed = db.con.execute("SELECT rowid + 1 AS rn, id FROM mixed ORDER BY rowid").df()
    db.close()
    old = mixed[mixed["id"] < 1400]
    capsys.readouterr()
    before = _state(path)
    assert _append(path, "mixed") == 2
    err = capsys.readouterr().err
    assert f"{len(old)} row(s) the stream already received" in err and len(old) == 17
    first = ", ".join(f"row {r.rn} (id={r.id})" for r in old.head(5).itertuples())
    assert first in err
    assert _state(path) == before


def test_a_key_repeated_inside_a_batch_and_a_null_key_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _db(tmp_path)
    assert _first(path, "--key", "id") == 0
    db = Database.open(path)
    db.con.execute(
        "CREATE TABLE twice AS SELECT * FROM batch1 UNION ALL SELECT * FROM batch1 WHERE id < 1403"
    )
    db.con.execute(
        "CREATE TABLE nulls AS SELECT * REPLACE (CASE WHEN id % 50 = 0 THEN NULL ELSE id END AS id) FROM batch2"
    )
    n_null = db.con.execute("SELECT count(*) FROM nulls WHERE id IS NULL").fetchone()
    db.close()
    capsys.readouterr()
    before = _state(path)
    assert _append(path, "twice") == 2
    err = capsys.readouterr().err
    # 3 keys appear twice: 6 rows share their key with another row of the batch
    assert (
        "6 row(s) share their key with another row of the batch: row 1 (id=1400), row 2 (id=1401), row 3 (id=1402)"
        in err
    )
    assert _append(path, "nulls") == 2
    err = capsys.readouterr().err
    assert n_null is not None and f"{n_null[0]} row(s) have a NULL key: row 1 (id=NULL)" in err
    assert _state(path) == before
    # a NULL key on the first release is refused too, and nothing is written
    assert main(
        ["anonymize", str(path), "--table", "nulls", "--qi", QI, "--sa", SA, "--l", "3,2", "--algorithm",
         "decomposition", "--output", "st2", "--noise", "random", "--key", "id", "--quiet"]
    ) == 2  # fmt: skip
    assert "have a NULL key" in capsys.readouterr().err
    assert _table(path, "SELECT count(*) AS n FROM ldiv.stream WHERE name = 'main.st2'")["n"][0] == 0
    assert _table(path, "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name LIKE 'st2%'")["n"][0] == 0


def test_fingerprint_without_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _db(tmp_path)
    assert _first(path) == 0  # keyed by a fingerprint of every column of `first` (id included)
    assert _append(path, "batch1") == 0
    db = Database.open(path)
    db.con.execute("CREATE TABLE batch2b AS SELECT *, 'today' AS loaded_at FROM batch2")
    db.con.execute("CREATE TABLE again AS SELECT b.*, 'later' AS loaded_at FROM batch1 b")
    db.close()
    assert _append(path, "batch2b") == 0  # an extra column is not hashed
    capsys.readouterr()
    before = _state(path)
    assert _append(path, "again") == 2  # the same rows from another table, with another extra column
    err = capsys.readouterr().err
    assert "250 row(s) the stream already received" in err and "row 1, row 2, row 3, row 4, row 5, ..." in err
    assert "content fingerprint (no --key) of the columns id, age, sex" in err and "--key COLUMN" in err
    assert _state(path) == before
    assert (_groups_per_person(path) == 1).all()


def test_fingerprint_identical_rows_in_different_batches_are_the_same_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _db(tmp_path)
    db = Database.open(path)
    for t in ("first", "batch1"):
        db.con.execute(f"ALTER TABLE {t} DROP COLUMN id")
    db.close()
    first = _table(path, "SELECT * FROM first")
    b1 = _table(path, "SELECT * FROM batch1 ORDER BY rowid")
    assert first.duplicated().any()  # identical rows inside one batch are different rows: accepted
    assert _first(path) == 0
    seen = set(map(tuple, first.astype(str).to_numpy()))
    dup = [i + 1 for i, r in enumerate(b1.astype(str).to_numpy()) if tuple(r) in seen]
    assert dup  # the synthetic census repeats rows
    capsys.readouterr()
    assert _append(path, "batch1") == 2
    err = capsys.readouterr().err
    assert f"{len(dup)} row(s) the stream already received" in err
    assert ", ".join(f"row {r}" for r in dup[:5]) in err


def test_the_key_of_a_stream_cannot_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _db(tmp_path)
    assert _first(path, "--key", "id") == 0
    capsys.readouterr()
    assert _append(path, "batch1", "--key", "age,sex") == 2
    err = capsys.readouterr().err
    assert "--key age,sex is not the key of the stream main.st, which keys its rows by --key id" in err
    assert _append(path, "batch1", "--key", "nope") == 2
    assert "nope" in capsys.readouterr().err
    db = Database.open(path)
    db.con.execute("ALTER TABLE batch1 DROP COLUMN id")
    db.close()
    assert _append(path, "batch1") == 2
    assert "lacks the column(s) id by which the stream main.st keys its rows" in capsys.readouterr().err


def test_a_stream_without_stored_keys_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _db(tmp_path)
    assert _first(path) == 0
    db = Database.open(path)  # a stream as an earlier ldiv_db left it: no key in its config
    config = json.loads(db.con.execute("SELECT config FROM ldiv.stream").fetchone()[0])  # type: ignore[index]
    del config["key"], config["fingerprint"]
    db.con.execute("UPDATE ldiv.stream SET config = ?", [json.dumps(config)])
    db.close()
    capsys.readouterr()
    assert _append(path, "batch1") == 2
    err = capsys.readouterr().err
    assert "was started before streams keyed their rows" in err and "--replace" in err


# ---------------------------------------------------------------------------- no published group grows
def test_a_starved_row_never_joins_a_published_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row added to a published group would show its QIs and SA values in the difference of two
    releases; a starved row waits for a release that forms a new group instead."""
    path = _db(tmp_path)
    db = Database.open(path)
    db.con.execute("CREATE TABLE none AS SELECT * FROM batch1 WHERE false")
    db.close()
    assert _first(path, "--key", "id", "--starvation-threshold", "0", "--json") == 0
    waiting = json.loads(capsys.readouterr().out)["details"]["rows_waiting"]
    assert waiting > 0  # the residual rows of the first release
    before = _table(path, "SELECT * FROM st_sa ORDER BY ALL")
    sizes = _table(path, "SELECT group_id, count(*) AS n FROM st_qid GROUP BY ALL ORDER BY ALL")
    for _ in range(2):  # the kept-back rows starve (penalty 1, 2 > 0) but no new group forms
        assert _append(path, "none", "--json") == 0
        d = json.loads(capsys.readouterr().out)["details"]
        assert d["new_groups"] == 0 and d["rows_waiting"] == waiting and d["max_starvation_waiting"] > 0
        assert d["incorporated_into_published_groups"] == 0 and d["grown_groups"] == 0
    pd.testing.assert_frame_equal(_table(path, "SELECT * FROM st_sa ORDER BY ALL"), before)
    assert _table(path, "SELECT group_id, count(*) AS n FROM st_qid GROUP BY ALL ORDER BY ALL").equals(sizes)
    assert _append(path, "batch1", "--json") == 0  # new groups form: the starved rows are published there
    d = json.loads(capsys.readouterr().out)["details"]
    assert d["max_starvation_waiting"] in (None, 0) and d["incorporated_into_published_groups"] == 0
    assert (_groups_per_person(path) == 1).all()


def test_the_channel_check_refuses_a_grown_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ldiv_db.algorithms.decomposition import release as dr

    path = _db(tmp_path)
    assert _first(path, "--key", "id") == 0
    real = dr._build

    def grow(*args: Any, **kwargs: Any) -> Any:
        built = real(*args, **kwargs)
        waiting = set(range(2000)) - set(built.assignment["rk"])  # a kept-back or arriving row ...
        rk = max(waiting & set(range(500, 900)))
        extra = pd.DataFrame({"rk": [rk], "gid": [1]})  # ... into the published group 1
        built.assignment = pd.concat([built.assignment, extra], ignore_index=True)
        return built

    monkeypatch.setattr(dr, "_build", grow)
    capsys.readouterr()
    before = _state(path)
    assert _append(path, "batch1") == 1
    err = capsys.readouterr().err
    assert "1 published group(s) would gain rows" in err and "nothing was written" in err
    assert _state(path) == before


def test_the_stored_keys_are_the_md5_of_the_key_text_and_the_setting_is_put_back(tmp_path: Path) -> None:
    """The key table is written uncompressed (Database.storing_incompressible): the same md5 of the same
    JSON text, computed here in Python, for a batch larger than one DuckDB row group (so the rows are
    stored by the statement itself), and the session's own force_compression is what it was after."""
    path = tmp_path / "big.duckdb"
    n = 130_000
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "age": rng.integers(17, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "note": np.where(rng.random(n) < 0.1, None, rng.choice(['a "quoted" one', "b\\c", "é"], n)),
            "job": rng.choice([f"job{i}" for i in range(8)], n),
        }
    )
    db = Database.open(path)
    db.con.register("df", frame)
    db.con.execute("CREATE TABLE people AS SELECT * FROM df")
    db.con.execute("SET force_compression = 'rle'")  # the session's own setting
    ldiv_db.anonymize(
        db,
        "people",
        ["age", "sex"],
        "job",
        algorithm="decomposition",
        l=2,
        output="st",
        seed=1,
        noise="random",
    )
    assert db.con.execute("SELECT current_setting('force_compression')").fetchall() == [("rle",)]
    stored = dict(db.con.execute('SELECT rk, key_hash FROM ldiv."keys:main.st"').fetchall())
    rows = db.con.execute("SELECT rowid, id, age, sex, note, job FROM people").fetchall()
    kinds = db.con.execute(
        "SELECT DISTINCT compression FROM pragma_storage_info('ldiv.\"keys:main.st\"') "
        "WHERE column_name = 'key_hash' AND segment_type = 'VARCHAR'"
    ).fetchall()
    db.close()
    assert ("Uncompressed",) in kinds
    expected = {
        rowid: hashlib.md5(
            json.dumps(
                [None if v is None else str(v) for v in values], ensure_ascii=False, separators=(",", ":")
            ).encode()
        ).hexdigest()
        for rowid, *values in rows
    }
    assert stored == expected


def test_storing_incompressible_puts_the_setting_back_after_a_failure(tmp_path: Path) -> None:
    db = Database.open(tmp_path / "f.duckdb")
    try:
        db.con.execute("SET force_compression = 'dictionary'")
        with pytest.raises(RuntimeError), db.storing_incompressible():
            assert db.con.execute("SELECT current_setting('force_compression')").fetchall() == [
                ("uncompressed",)
            ]
            raise RuntimeError("a failed write")
        assert db.con.execute("SELECT current_setting('force_compression')").fetchall() == [("dictionary",)]
    finally:
        db.close()
