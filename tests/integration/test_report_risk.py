"""The report's risk section: ``ldiv risk``'s figures of each release on its classes, every one with its
formula and assumption as a hover (title) and a numbered footnote with its paper; the values equal those
of ``ldiv risk --release`` and a count over the release's rows by (group id, labels)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html.parser import HTMLParser

import duckdb
import pytest

from ldiv_db.cli.main import main
from tests.report_env import QI, ReportEnv


class Cells(HTMLParser):
    """Per release section: its risk cells (data-key risk:*), the titles of their rows and the notes."""

    def __init__(self) -> None:
        super().__init__()
        self.section: str | None = None
        self.title: str | None = None
        self.cells: dict[str, dict[str, tuple[str, str | None]]] = {}
        self.notes: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("data-release")
        elif tag == "tr":
            self.title = a.get("title")
        elif tag == "td" and (a.get("data-key") or "").startswith("risk:") and self.section:
            self.cells.setdefault(self.section, {})[str(a["data-key"])[5:]] = (
                str(a.get("data-value")),
                self.title,
            )
        elif tag == "li" and a.get("data-note") and self.section:
            self.notes.setdefault(self.section, []).append(str(a["data-note"]))


def test_risk_section_is_ldiv_risk_with_its_audit(
    report_env: ReportEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    page = Cells()
    page.feed(report_env.report_html.read_text(encoding="utf-8"))
    for release in ("rel_mondrian", "rel_tp"):
        section = next(name for name in page.cells if name.split(".")[-1] == release)
        cells = page.cells[section]
        assert main(["risk", str(report_env.db), "--release", release, "--json"]) == 0
        d = json.loads(capsys.readouterr().out)
        for fig in d["figures"]:
            value, title = cells[fig["key"]]
            assert title is not None and fig["formula"] in title and fig["assumption"] in title
            if fig["value"] is None:
                assert value == ""
            else:
                assert float(Fraction(value)) == pytest.approx(fig["value"], rel=1e-12), fig["key"]
        assert page.notes[section] == [f["key"] for f in d["figures"]]
        con = duckdb.connect(str(report_env.db), read_only=True)
        try:
            cols = ", ".join(f'"{q}"' for q in ["group_id", *QI])
            sizes = [s for (s,) in con.execute(f"SELECT count(*) FROM {release} GROUP BY {cols}").fetchall()]
        finally:
            con.close()
        assert Fraction(cells["prosecutor_average"][0]) == Fraction(len(sizes), sum(sizes))
        assert Fraction(cells["sample_uniques"][0]) == Fraction(sum(1 for s in sizes if s == 1), sum(sizes))
        assert Fraction(cells["prosecutor_highest"][0]) == Fraction(1, min(sizes))
    assert re.search(
        r"no population-uniqueness estimates", report_env.report_html.read_text(encoding="utf-8")
    )
