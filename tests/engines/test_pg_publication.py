"""Publication on PostgreSQL (ldiv_db/pipeline/publication.py): the same rules as on DuckDB
(tests/integration/test_publication.py) through the CLI against a real server — a release is a draft,
publishing checks its composition with the published releases and refuses below l unless accepted, and a
published release is never replaced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from tests.integration.test_publication import ANON, ROWS, cli


@pytest.fixture
def url(pg_server, tmp_path: Path) -> str:  # type: ignore[no-untyped-def]
    target = str(pg_server.url(pg_server.new_database("pub")))
    data = tmp_path / "people.csv"
    data.write_text("zip;sex;disease\n" + "".join(f"{z};{s};{d}\n" for z, s, d in ROWS))
    assert main(["load", target, str(data), "--table", "people", "--sep", ";"]) == 0
    (tmp_path / "zip.csv").write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    (tmp_path / "sex.csv").write_text("F;*\nM;*")
    for col in ("zip", "sex"):
        assert main(["hierarchy", "import", target, "--table", "people", "--column", col, str(tmp_path / f"{col}.csv")]) == 0  # fmt: skip
    return target


def test_publication_on_postgres(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()

    def anonymize(out: str, levels: str, *extra: str) -> tuple[int, str, str]:
        return cli(
            capsys, "anonymize", url, *ANON, "--algorithm", "full-domain", "--levels", levels, "--output", out,
            "--json", *extra,
        )  # fmt: skip

    code, out, err = anonymize("by_sex", "zip=1,sex=0")
    assert code == 0, err
    assert json.loads(out)["publication"] == "draft"
    assert cli(capsys, "release", "publish", url, "--release", "by_sex")[0] == 0
    code, out, err = anonymize("by_zip", "zip=0,sex=1")
    assert code == 0, err
    comp = json.loads(out)["composition"]
    assert comp["checked"] and not comp["ok"] and comp["single"] == len(ROWS)
    code, _, err = cli(capsys, "release", "publish", url, "--release", "by_zip")
    assert code == 1 and "main.by_zip is not published" in err
    code, out, err = cli(capsys, "release", "publish", url, "--release", "by_zip", "--accept-composition", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["accepted_below_l"] is True, err
    code, _, err = anonymize("by_sex", "zip=2,sex=0", "--replace")
    assert code == 2 and "published release" in err
    code, out, _ = cli(capsys, "releases", url, "--json")
    got = {r["name"]: (r["publication"], r["accepted_below_l"]) for r in json.loads(out)["releases"]}
    assert got == {"main.by_sex": ("published", False), "main.by_zip": ("published", True)}
