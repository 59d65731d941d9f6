"""A small database with releases, the report page and the comparison page, built once per test session
for the report tests (tests/integration/test_report.py) and the browser test (tests/browser/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import ldiv_db
from fixtures import census
from fixtures.demo import OCCUPATION_CATEGORIES
from ldiv_db import taxonomy
from ldiv_db.db import Database

QI = ["age", "sex", "race", "marital_status"]
SA = census.SA
L = 3
ROWS = 3000
# A release "made by another tool": age suppressed, the other QIs published as they are.
EXTERNAL_SQL = (
    "CREATE TABLE other_tool AS SELECT '*' AS age, sex, race, marital_status, occupation FROM census"
)


@dataclass
class ReportEnv:
    db: Path
    releases: list[str]
    report_html: Path
    compare_html: Path
    compare: ldiv_db.CompareResult


def build(directory: Path) -> ReportEnv:
    path = directory / "report.duckdb"
    db = Database.open(path)
    files = census.write(directory / "census", n=ROWS)
    ldiv_db.load(db, files["data"], "census", sep=";")
    for col in census.COLUMNS:
        if col in files:
            taxonomy.import_hierarchy(db, "census", col, files[col])
    cats = directory / "categories.csv"
    cats.write_text("".join(f"{v};{c}\n" for v, c in OCCUPATION_CATEGORIES.items()), encoding="utf-8")
    taxonomy.import_categories(db, "census", SA, cats)
    ldiv_db.anonymize(db, "census", QI, SA, algorithm="mondrian", l=L, output="rel_mondrian")
    ldiv_db.anonymize(db, "census", QI, SA, algorithm="tp", l=L, output="rel_tp")
    db.con.execute(EXTERNAL_SQL)
    db.close()
    report_html = directory / "report.html"
    ldiv_db.report(path, ["rel_mondrian", "rel_tp"], html=str(report_html))
    compare_html = directory / "compare.html"
    cmp = ldiv_db.compare(
        path, "census", QI, SA, L, algorithms="bsgi,mondrian,tp,full-domain", releases=["other_tool"],
        html=str(compare_html),
    )  # fmt: skip
    return ReportEnv(path, ["rel_mondrian", "rel_tp"], report_html, compare_html, cmp)
