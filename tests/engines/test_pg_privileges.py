"""PostgreSQL least privilege (issue 52): a role that is not the owner, holding exactly the privileges
docs/how-to/postgresql.md documents for a write command after the first run, runs the write and read
commands; a role missing one of them gets an error naming what is missing (exit 2), never a traceback.

The documented set, granted here and nothing more (PUBLIC keeps PostgreSQL's defaults, CONNECT and
TEMP on the database): ``USAGE, CREATE`` on the schemas ``ldiv`` and ``main``; ``SELECT, INSERT,
UPDATE, DELETE`` on the tables of ``ldiv`` and ``USAGE, SELECT, UPDATE`` on its sequences; ``SELECT``
on the source table."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ldiv_db.cli.main import main

WORKER = "ldiv_worker"
GRANTS = (
    "GRANT USAGE, CREATE ON SCHEMA ldiv, main TO {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ldiv TO {role}",
    "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ldiv TO {role}",
    "GRANT SELECT ON main.src TO {role}",
)


def run(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def setup(pg_server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """The owner (the test role, owner of the database) loads the source and runs the first write; the
    worker role is created with a password and no privilege of its own."""
    tmp = tmp_path_factory.mktemp("priv")
    name = pg_server.new_database("priv")
    owner = pg_server.url(name)
    csv = tmp / "src.csv"
    csv.write_text(
        "age;sex;occ\n" + "".join(f"{20 + i % 30};{'mf'[i % 2]};job{i % 5}\n" for i in range(300)),
        encoding="utf-8",
    )
    for args in (
        ["load", owner, csv, "--table", "src"],
        ["anonymize", owner, "--table", "src", "--qi", "age,sex", "--sa", "occ", "--l", "3",
         "--algorithm", "mondrian", "--output", "first"],
    ):  # fmt: skip
        assert main([str(a) for a in args]) == 0, args
    password = secrets.token_urlsafe(12)
    with pg_server.admin() as con:
        con.execute(f"CREATE ROLE {WORKER} LOGIN PASSWORD '{password}'")
    worker = f"postgresql://{WORKER}:{password}@{pg_server.host}:{pg_server.port}/{name}"
    yield {"server": pg_server, "db": name, "owner": owner, "worker": worker, "tmp": tmp}
    with pg_server.admin(name) as con:
        con.execute(f"DROP OWNED BY {WORKER} CASCADE")
    with pg_server.admin() as con:
        con.execute(f"DROP ROLE {WORKER}")


def _grant(setup: dict[str, Any], skip: int | None = None) -> None:
    with setup["server"].admin(setup["db"]) as con:
        con.execute(f"DROP OWNED BY {WORKER} CASCADE")  # what earlier tests granted or created
        for i, sql in enumerate(GRANTS):
            if i != skip:
                con.execute(sql.format(role=WORKER))


def _anonymize(worker: str, algorithm: str, output: str, *extra: str) -> list[str]:
    return ["anonymize", worker, "--table", "src", "--qi", "age,sex", "--sa", "occ", "--l", "3",
            "--algorithm", algorithm, "--output", output, *extra]  # fmt: skip


def test_the_documented_privileges_suffice(setup: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    _grant(setup)
    worker = setup["worker"]
    for algorithm in ("mondrian", "tp+", "bsgi"):
        code, out, err = run(
            capsys, *_anonymize(worker, algorithm, f"w_{algorithm.replace('+', 'p')}", "--json")
        )
        assert code == 0, (algorithm, err)
        assert json.loads(out)["verified"] is True
    code, _, err = run(capsys, *_anonymize(worker, "mondrian", "w_mondrian", "--replace"))
    assert code == 0, err  # its own release, replaced
    code, _, err = run(capsys, "check", worker, "--table", "w_mondrian", "--qi", "age,sex", "--sa", "occ",
                       "--model", "distinct", "--l", "3")  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, "releases", worker, "--json")
    assert code == 0, err
    assert {r["name"] for r in json.loads(out)["releases"]} >= {"main.first", "main.w_mondrian", "main.w_tpp"}
    code, _, err = run(capsys, "metrics", worker, "--source", "src", "--release", "w_bsgi", "--qi", "age,sex",
                       "--sa", "occ")  # fmt: skip
    assert code == 0, err


@pytest.mark.parametrize(
    ("skip", "named", "fix"),
    [
        (0, "permission denied for schema ldiv", "GRANT USAGE, CREATE ON SCHEMA ldiv, main TO role"),
        (1, "permission denied for table schema_migration", "ON ALL TABLES IN SCHEMA ldiv"),
        (2, "permission denied for sequence", "ON ALL SEQUENCES IN SCHEMA ldiv"),
        (3, "unknown table 'src'", "a table this role has no privilege on is not listed: GRANT SELECT"),
    ],
)
def test_a_missing_privilege_is_named(
    setup: dict[str, Any], capsys: pytest.CaptureFixture[str], skip: int, named: str, fix: str
) -> None:
    """Each documented privilege left out in turn: exit 2, the refusal and the GRANT that fixes it."""
    _grant(setup, skip=skip)
    code, _, err = run(capsys, *_anonymize(setup["worker"], "mondrian", "w_missing"))
    assert code == 2, err
    assert named in err and fix in " ".join(err.split()), err
    assert "Traceback" not in err and "this is a bug" not in err, err
    _grant(setup)
    with setup["server"].admin(setup["db"]) as con:
        made = con.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'w_missing'").fetchone()
    assert made == (0,)


def test_the_docs_state_the_privileges_this_test_grants() -> None:
    """The PostgreSQL how-to states these privileges, and its GRANT block is exactly GRANTS."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "how-to" / "postgresql.md").read_text(
        encoding="utf-8"
    )
    section = page.split("## Roles and privileges", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sql\n", 1)[1].split("```", 1)[0]
    assert [line.rstrip(";") for line in block.splitlines()] == [
        g.format(role="bob").replace("main.src", "main.adult") for g in GRANTS
    ]
    flat = " ".join(section.split())
    for phrase in (
        "`USAGE, CREATE` on the schemas `ldiv` and `main`",
        "`SELECT, INSERT, UPDATE, DELETE` on the tables of `ldiv`",
        "`USAGE, SELECT, UPDATE` on its sequences",
        "`SELECT` on the source table",
    ):
        assert phrase in flat, phrase
