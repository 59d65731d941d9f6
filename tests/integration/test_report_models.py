"""The report names each release's privacy model with its definition and the paper it comes from (issue
56): the first paragraph of the model's module, the same text as the generated reference; a combination
lists each of its models."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ldiv_db
from fixtures import census
from ldiv_db.cli.main import main
from tests.report_env import SA, ReportEnv


def _definitions(html: str) -> dict[str, str]:
    block = re.findall(r'<p class="note model-definitions">(.*?)</p>', html, re.S)
    return {m: t for b in block for m, t in re.findall(r'<span data-model="([^"]+)">([^<]*)</span>', b)}


def test_each_release_names_its_model_with_definition_and_paper(report_env: ReportEnv) -> None:
    got = _definitions(report_env.report_html.read_text(encoding="utf-8"))
    # mondrian's model is distinct, tp's frequency (l-eligibility): each with its paper
    assert "Machanavajjhala" in got["distinct"] and "distinct SA values" in got["distinct"]
    assert "Anatomy" in got["frequency"] and "l·h(G) ≤ |G|" in got["frequency"]


def test_a_combined_model_lists_each_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = census.write(tmp_path / "census", n=1500)
    db = str(tmp_path / "c.duckdb")
    ldiv_db.load(db, files["data"], "census", sep=";")
    for col in ("age", "education"):
        assert main(["hierarchy", "import", db, "--table", "census", "--column", col, str(files[col])]) == 0
    args = ["--table", "census", "--qi", "age,education", "--sa", SA, "--model", "distinct,t-closeness"]
    assert main(["anonymize", db, *args, "--algorithm", "optimal", "--l", "2", "--t", "0.3",
                 "--suppression-limit", "0.05", "--output", "rel"]) == 0  # fmt: skip
    html = tmp_path / "r.html"
    assert main(["report", db, "--release", "rel", "--html", str(html)]) == 0
    capsys.readouterr()
    got = _definitions(html.read_text(encoding="utf-8"))
    assert set(got) == {"distinct", "t-closeness"}
    assert "Li, Li, Venkatasubramanian" in got["t-closeness"] and "Earth Mover" in got["t-closeness"]
