"""Publication (ldiv_db/pipeline/publication.py): a release is a draft until it is published; publishing
checks it as a set with the published releases of its source and refuses below l unless accepted; a
published release is never replaced; compare writes candidates; `ldiv releases` shows each state.

The table is built so that two releases, each verified 2-diverse on its own, intersect to one disease for
every row: release A keeps sex and generalizes zip (its classes are F: {a, b}, M: {c, d}), release B keeps
zip and generalizes sex (zip 10070: {a, c}, 10071: {b, d}, ...): a target of zip 10070, sex F is left with
{a, b} ∩ {a, c} = {a}."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from ldiv_db.db import Database

ANON = ["--table", "people", "--qi", "zip,sex", "--sa", "disease", "--l", "2", "--quiet"]
ROWS = [  # zip, sex, disease: F rows carry a/b, M rows c/d; even zips a/c, odd zips b/d
    (f"1007{z}", sex, {("F", 0): "a", ("F", 1): "b", ("M", 0): "c", ("M", 1): "d"}[(sex, z % 2)])
    for _ in range(3)
    for z in range(4)
    for sex in ("F", "M")
]


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "p.duckdb"
    db = Database.open(path)
    db.con.execute("CREATE TABLE people (zip VARCHAR, sex VARCHAR, disease VARCHAR)")
    db.con.executemany("INSERT INTO people VALUES (?, ?, ?)", ROWS)
    db.close()
    (tmp_path / "zip.csv").write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    (tmp_path / "sex.csv").write_text("F;*\nM;*")
    for col in ("zip", "sex"):
        assert main(["hierarchy", "import", str(path), "--table", "people", "--column", col, str(tmp_path / f"{col}.csv")]) == 0  # fmt: skip
    return path


def anonymize(capsys: pytest.CaptureFixture[str], db: Path, out: str, levels: str, *extra: str) -> dict:
    code, stdout, err = cli(
        capsys, "anonymize", db, *ANON, "--algorithm", "full-domain", "--levels", levels, "--output", out,
        "--json", *extra,
    )  # fmt: skip
    assert code == 0, err
    return dict(json.loads(stdout))


def states(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, str]:
    code, out, err = cli(capsys, "releases", db, "--json")
    assert code == 0, err
    return {r["name"]: r["publication"] for r in json.loads(out)["releases"] if r["superseded_by"] is None}


def published_rows(db: Path) -> list[tuple[int, str, bool]]:
    con = Database.open(db, mode="read")
    try:
        return [
            (int(r[0]), str(r[1]), bool(r[2]))
            for r in con.con.execute(
                "SELECT release_id, state, accepted FROM ldiv.publication ORDER BY decided_at, release_id"
            ).fetchall()
        ]
    finally:
        con.close()


def test_a_release_is_a_draft_until_published(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    assert a["publication"] == "draft" and a["composition"] is None  # nothing of the source published yet
    assert states(capsys, world) == {"main.by_sex": "draft"}
    code, out, err = cli(capsys, "release", "publish", world, "--release", "by_sex", "--json")
    assert code == 0, err
    assert json.loads(out)["publication"] == "published" and json.loads(out)["checked_with"] == []
    assert states(capsys, world) == {"main.by_sex": "published"}
    code, out, _ = cli(capsys, "release", "publish", world, "--release", "by_sex")
    assert code == 0 and "already published" in out


def test_a_release_that_composes_below_l_is_refused_unless_accepted(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    assert cli(capsys, "release", "publish", world, "--release", "by_sex")[0] == 0
    b = anonymize(capsys, world, "by_zip", "zip=0,sex=1")
    comp = b["composition"]  # the draft says how it would compose, before anyone publishes it
    assert comp["checked"] and not comp["ok"] and comp["with"] == ["main.by_sex"]
    assert comp["single"] == len(ROWS)  # every row is left with its own disease alone
    code, out, err = cli(capsys, "release", "publish", world, "--release", "by_zip")
    assert code == 1, err
    assert "main.by_zip is not published" in err and "main.by_sex" in err and "Traceback" not in err
    assert states(capsys, world)["main.by_zip"] == "draft"
    before = published_rows(world)
    code, out, err = cli(capsys, "release", "publish", world, "--release", "by_zip", "--accept-composition", "--json")  # fmt: skip
    assert code == 0, err
    got = json.loads(out)
    assert got["accepted_below_l"] is True and got["composition"]["single"] == len(ROWS)
    after = published_rows(world)
    assert after[: len(before)] == before and after[-1] == (b["release_id"], "published", True)
    code, out, _ = cli(capsys, "releases", world)
    assert "published (accepted below l)" in out


def test_a_release_that_composes_safely_is_published(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    assert cli(capsys, "release", "publish", world, "--release", "by_sex")[0] == 0
    c = anonymize(capsys, world, "coarse", "zip=2,sex=0")  # coarser than by_sex: adds nothing to it
    assert c["composition"]["checked"] and c["composition"]["ok"]
    code, out, err = cli(capsys, "release", "publish", world, "--release", "coarse", "--json")
    assert code == 0, err
    assert json.loads(out)["checked_with"] == ["main.by_sex"] and json.loads(out)["accepted_below_l"] is False


def test_a_published_release_is_never_replaced(world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    anonymize(capsys, world, "by_sex", "zip=2,sex=0", "--replace")  # a draft is replaced freely
    assert cli(capsys, "release", "publish", world, "--release", "by_sex")[0] == 0
    code, _, err = cli(
        capsys, "anonymize", world, *ANON, "--algorithm", "full-domain", "--levels", "zip=1,sex=0",
        "--output", "by_sex", "--replace",
    )  # fmt: skip
    assert code == 2 and "published release" in err and "Traceback" not in err
    assert states(capsys, world) == {"main.by_sex": "published"}
    assert a["release_id"] not in [r[0] for r in published_rows(world)]  # the replaced draft never was


def test_a_changed_or_unknown_release_is_not_published(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "release", "publish", world, "--release", "nothing")
    assert code == 2 and "no release is recorded under the name" in err
    anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    db = Database.open(world)
    db.con.execute("UPDATE by_sex SET disease = 'a'")
    db.close()
    code, _, err = cli(capsys, "release", "publish", world, "--release", "by_sex")
    assert code == 2 and "its tables are changed" in err
    assert published_rows(world) == []


def test_a_published_table_changed_since_blocks_the_check(
    world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anonymize(capsys, world, "by_sex", "zip=1,sex=0")
    assert cli(capsys, "release", "publish", world, "--release", "by_sex")[0] == 0
    db = Database.open(world)
    db.con.execute("DROP TABLE by_sex")
    db.close()
    b = anonymize(capsys, world, "by_zip", "zip=0,sex=1")
    assert b["composition"]["checked"] is False and "missing" in b["composition"]["reason"]
    code, _, err = cli(capsys, "release", "publish", world, "--release", "by_zip")
    assert code == 1 and "cannot check how main.by_zip composes" in err and "missing" in err
    assert "restore a published table as it was" in err


def test_compare_writes_candidates(world: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = cli(
        capsys, "compare", world, "--table", "people", "--qi", "zip,sex", "--sa", "disease", "--l", "2",
        "--algorithms", "mondrian,full-domain", "--html", tmp_path / "c.html", "--json",
    )  # fmt: skip
    assert code == 0, err
    written = {n: s for n, s in states(capsys, world).items() if "_cmp_" in n}
    assert written and set(written.values()) == {"candidate"}, written


def test_a_set_the_check_cannot_read_is_refused_unless_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Decomposition+ releases (several SAs) are outside the composition check, which names why:
    publishing a second one of a source is refused until the user accepts it unchecked, recorded."""
    from tests.integration.frames import make_table
    from tests.integration.test_decomposition import synthetic

    path = tmp_path / "d.duckdb"
    db = Database.open(path)
    make_table(db, "staff", synthetic(120, 11))
    db.close()
    args = ["--qi", "zip,age", "--sa", "job,pay", "--l", "3,3", "--noise", "random", "--quiet"]
    for out, seed in (("first", "1"), ("second", "2")):
        code, _, err = cli(
            capsys, "anonymize", path, "--table", "staff", "--algorithm", "decomposition", *args,
            "--seed", seed, "--output", out,
        )  # fmt: skip
        assert code == 0, err
    assert cli(capsys, "release", "publish", path, "--release", "first")[0] == 0  # alone: nothing to check
    code, _, err = cli(capsys, "release", "publish", path, "--release", "second")
    assert code == 1 and "cannot check how main.second composes" in err and "one SA each" in err, err
    # the hint is the cause's own, not the one of a changed table
    assert "compose releases of the same single SA" in err and "restore a published table" not in err, err
    code, out, err = cli(capsys, "release", "publish", path, "--release", "second", "--accept-composition", "--json")  # fmt: skip
    assert code == 0, err
    got = json.loads(out)
    assert got["accepted_below_l"] is True and got["composition"] is None
    assert published_rows(path)[-1][1:] == ("published", True)
