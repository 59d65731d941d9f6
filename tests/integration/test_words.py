"""The words on the page (issue 52): one vocabulary for what a release leaves out (rows deleted, cells
suppressed) in the CLI's text, --json and the pages; the report's charts drawn at the values they name
(the l line at l, integer ticks for counts); Decomposition+ per SA; compare judging each release against
its own l. Counts are re-derived from the written tables with pandas, the l line from the SVG's ticks."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.cli.main import main

QI = ["age", "sex", "race", "marital_status"]
SA = census.SA
ROWS = 800


@pytest.fixture(scope="module")
def words_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("words")
    path = d / "w.duckdb"
    files = census.write(d / "census", n=ROWS)
    with ldiv_db.Database.open(path) as db:
        ldiv_db.load(db, files["data"], "census", sep=";")
        for col in census.COLUMNS:
            if col in files:
                taxonomy.import_hierarchy(db, "census", col, files[col])
    return path


def _copy(tmp_path: Path, db: Path) -> Path:
    out = tmp_path / "copy.duckdb"
    shutil.copy(db, out)
    return out


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _frame(db: Path, table: str):  # type: ignore[no-untyped-def]
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f'SELECT * FROM "{table}"').df()
    finally:
        con.close()


def _suppressed(frame, sa: list[str]) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(cells suppressed, rows with suppressed cells) counted on the published rows by hand."""
    star = frame[QI].astype(str).eq("*")
    unknown = frame[sa].isna()
    cells = int(star.to_numpy().sum()) + int(unknown.to_numpy().sum())
    rows = int((star.any(axis=1) | unknown.any(axis=1)).sum())
    return cells, rows


def _anonymize(capsys: pytest.CaptureFixture[str], db: Path, algo: str, out: str, *extra: str) -> str:
    return _run(
        capsys, "anonymize", str(db), "--table", "census", "--qi", ",".join(QI), "--sa", SA,
        "--algorithm", algo, "--output", out, "--quiet", *extra,
    )  # fmt: skip


@pytest.mark.parametrize("algo", ["tp", "bsgi"])
def test_anonymize_text_says_deleted_and_suppressed_cells(
    tmp_path: Path, words_db: Path, capsys: pytest.CaptureFixture[str], algo: str
) -> None:
    """TP stars cells (Definition 1), BSGI generalizes some to the root '*': both are cells suppressed,
    counted the same way; no row is called suppressed; no raw dict, no None."""
    db = _copy(tmp_path, words_db)
    text = _anonymize(capsys, db, algo, "rel", "--l", "4")
    cells, rows = _suppressed(_frame(db, "rel"), [SA])
    assert cells > 0  # both algorithms publish '*' cells on this table: the count is not trivially 0
    line = next(x for x in text.splitlines() if x.startswith("rows "))
    assert (
        line
        == f"rows         {ROWS:,} in, {ROWS:,} published, 0 deleted; {cells:,} cells suppressed in {rows:,} rows"
    )
    assert "None" not in text and "{" not in text and "suppressed values" not in text
    assert "rows suppressed" not in text and "details" not in text  # the details only with --verbose
    assert re.search(r"^model        \S+ \(l=4\)$", text, re.M), text
    data = json.loads(_anonymize(capsys, db, algo, "rel", "--l", "4", "--replace", "--json"))
    assert (data["rows_deleted"], data["cells_suppressed"], data["rows_with_suppressed_cells"]) == (
        0,
        cells,
        rows,
    )
    assert "rows_suppressed" not in data  # renamed (decision 0011): no key keeps the old meaning
    verbose = _anonymize(capsys, db, algo, "rel", "--l", "4", "--replace", "--verbose")
    assert "\ndetails\n" in verbose and "  group_column: group_id" in verbose
    assert "None" not in verbose and "{'" not in verbose
    print(algo, "cells suppressed", cells, "in rows", rows)


def test_job_file_verbose(tmp_path: Path, words_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _copy(tmp_path, words_db)
    job = tmp_path / "job.toml"
    body = f'database = "{db.name}"\n[source]\ntable = "census"\n[anonymize]\nqi = {json.dumps(QI)}\n'
    body += f'sa = "{SA}"\nalgorithm = "mondrian"\nl = 3\noutput = "job_rel"\n'
    job.write_text(body, encoding="utf-8")
    plain = _run(capsys, "run", str(job))
    assert "\ndetails\n" not in plain and "None" not in plain
    assert "\ndetails\n" in _run(capsys, "run", str(job), "--verbose")
    job.write_text(body + "verbose = true\n", encoding="utf-8")
    assert "\ndetails\n" in _run(capsys, "run", str(job))
    job.write_text(body + 'verbose = "yes"\n', encoding="utf-8")
    assert main(["run", str(job)]) == 2
    assert "verbose" in capsys.readouterr().err


def test_releases_header_and_recursive_c(
    tmp_path: Path, words_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(tmp_path, words_db)
    _anonymize(capsys, db, "bsgi", "rec", "--model", "recursive", "--c", "3", "--l", "3")
    _anonymize(capsys, db, "mondrian", "mon", "--l", "3")
    lines = _run(capsys, "releases", str(db)).splitlines()
    assert lines[0].split()[:5] == ["id", "release", "source", "algorithm", "model"]
    assert "verdict" in lines[0] and len(lines) == 3
    rec = next(x for x in lines if "main.rec" in x)
    assert "recursive (c=3, l=3)" in rec and "None" not in "\n".join(lines)
    assert "distinct (l=3)" in next(x for x in lines if "main.mon" in x)
    listed = json.loads(_run(capsys, "releases", str(db), "--json"))["releases"]
    for r in listed:
        cells, rows = _suppressed(_frame(db, r["name"].split(".")[1]), [SA])
        assert (r["rows_deleted"], r["cells_suppressed"], r["rows_with_suppressed_cells"]) == (0, cells, rows)
        assert "rows_suppressed" not in r


# ------------------------------------------------------------------------------------------ the pages
class _Page(HTMLParser):
    """Per scope (data-release / data-label): data-key -> (data-value, shown text); figures' SVG."""

    def __init__(self, scope_attr: str) -> None:
        super().__init__()
        self.scope_attr, self.scope = scope_attr, None
        self.values: dict[str | None, dict[str, tuple[str, str]]] = {}
        self.key: tuple[str, str] | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self.scope_attr in a:
            self.scope = a[self.scope_attr]  # type: ignore[assignment]
        if a.get("data-key"):
            self.key, self.text = (str(a["data-key"]), a.get("data-value") or ""), ""

    def handle_data(self, data: str) -> None:
        if self.key is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if self.key is not None and tag == "td":
            self.values.setdefault(self.scope, {})[self.key[0]] = (self.key[1], self.text.strip())
            self.key = None


def _page(html: Path, scope: str) -> _Page:
    p = _Page(scope)
    p.feed(html.read_text(encoding="utf-8"))
    return p


def _svg(html: Path, chart: str) -> str:
    text = html.read_text(encoding="utf-8")
    start = text.index(f'data-chart="{chart}"')
    return text[start : text.index("</figure>", start)]


def _ticks(svg: str, chart: str, axis: str) -> list[tuple[float, str]]:
    """(pixel position, label) of each tick of ``axis`` ('x' or 'y') of a matplotlib SVG."""
    out = []
    for block in re.split(rf'<g id="{re.escape(chart)}-{axis}tick_\d+">', svg)[1:]:
        pos = re.search(rf'<use [^>]*\b{axis}="([-\d.]+)"', block)
        label = re.search(r">([^<>]+)</text>", block)
        assert pos and label
        out.append((float(pos.group(1)), label.group(1)))
    return out


def _threshold_value(svg: str, chart: str) -> float:
    """The value on the x axis where the chart's dashed threshold line stands, read through its ticks."""
    path = re.search(rf'<g id="{re.escape(chart)}-threshold">\s*<path d="M ([-\d.]+) ', svg)
    assert path, "no threshold line"
    ticks = [(x, float(t.replace("−", "-"))) for x, t in _ticks(svg, chart, "x")]
    (x0, v0), (x1, v1) = ticks[0], ticks[-1]
    return v0 + (float(path.group(1)) - x0) * (v1 - v0) / (x1 - x0)


def test_report_l_line_at_l_and_integer_ticks(
    tmp_path: Path, words_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BSGI at l = 4 gives every class exactly 4 distinct values: one bar in the distinct chart, which
    got fractional ticks; the dashed l line stood at 3.5."""
    db = _copy(tmp_path, words_db)
    _anonymize(capsys, db, "bsgi", "b4", "--l", "4")
    html = tmp_path / "r.html"
    _run(capsys, "report", str(db), "--release", "b4", "--html", str(html))
    svg = _svg(html, "r1-distinct")
    assert 'data-bars="1"' in svg
    at = _threshold_value(svg, "r1-distinct")
    assert at == pytest.approx(4.0, abs=1e-6)
    for chart in ("r1-distinct", "r1-class-sizes", "r1-entropy", "r1-confidence", "r1-sa"):
        labels = [t for _, t in _ticks(_svg(html, chart), chart, "y")]
        assert labels and all(re.fullmatch(r"[\d,]+", t) for t in labels), (chart, labels)
    assert all(re.fullmatch(r"\d+", t) for _, t in _ticks(svg, "r1-distinct", "x"))
    page = _page(html, "data-release").values["main.b4"]
    cells, rows = _suppressed(_frame(db, "b4"), [SA])
    assert page["cells_suppressed"][0] == str(cells) and page["rows_with_suppressed_cells"][0] == str(rows)
    assert page["rows_deleted"][0] == "0" and "rows_suppressed" not in page
    assert page["ncp"][1].endswith(" %")  # NCP's one unit, as on the comparison page and in the CLI
    assert '<tr><th>NCP</th><td class="n" data-key="ncp"' in html.read_text(encoding="utf-8")
    print("l line of r1-distinct at", at, "; cells suppressed", cells, "in rows", rows)


def test_report_of_decomposition_per_sa(tmp_path: Path) -> None:
    """Two SAs: each has its own numbers and charts (the l of one is never shown beside the other's
    chart), and the loss chart shows the noise per SA instead of an empty NCP chart."""
    from fixtures.papers import paper_tables

    t = paper_tables()["decomposition_table1"]
    db = tmp_path / "dec.duckdb"
    with ldiv_db.Database.open(db) as con:
        ldiv_db.load(con, t.path, "dec", sep=";")
        for col, path in t.hierarchies.items():
            taxonomy.import_hierarchy(con, "dec", col, path)
    sas = ["Occupation", "Salary"]
    res = ldiv_db.anonymize(
        str(db), "dec", ["Gender", "Zip", "Birthday"], sas, algorithm="decomposition", l=[4, 3],
        output="dec_rel",
    )  # fmt: skip
    html = tmp_path / "dec.html"
    ldiv_db.report(str(db), "dec_rel", html=str(html))
    page = _page(html, "data-release").values["main.dec_rel"]
    frame = _frame(db, "dec_rel_sa")
    for sa, l in zip(sas, (4, 3), strict=True):
        per_group = frame.groupby("group_id")[sa]
        assert page[f"distinct_l@{sa}"][0] == str(int(per_group.nunique().min())), sa
        top = per_group.apply(lambda s: s.value_counts().max() / len(s)).max()
        assert float(page[f"max_confidence@{sa}"][0]) == pytest.approx(top)
        assert page[f"l@{sa}"][0] == str(l)
    assert "distinct_l" not in page  # no number without its SA
    text = html.read_text(encoding="utf-8")
    for j, sa in enumerate(sas):
        name = "r1-distinct" + (f"-{j}" if j else "")
        svg = _svg(html, name)
        assert f"Distinct SA values of {sa} per class" in svg
        assert _threshold_value(svg, name) == pytest.approx((4, 3)[j], abs=1e-6)
    noise = _svg(html, "r1-qi-ncp")
    assert "Noise per SA" in noise and 'data-bars="2"' in noise
    # rows kept back for the stream's next release are waiting, not deleted
    waiting = int(page["rows_waiting"][0]) if "rows_waiting" in page else 0
    assert page["rows_deleted"][0] == "0" and waiting == res.rows_waiting
    assert int(page["rows_in"][0]) == res.rows_published + waiting
    assert "rows suppressed" not in text
    print("decomposition: rows waiting", waiting, "; noise", res.details.get("noise_by_sa"))


def test_compare_judges_each_release_by_its_own_l(
    tmp_path: Path, words_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(tmp_path, words_db)
    _anonymize(capsys, db, "mondrian", "m3", "--l", "3")
    html = tmp_path / "c.html"
    text = _run(
        capsys, "compare", str(db), "--table", "census", "--qi", ",".join(QI), "--sa", SA, "--l", "4",
        "--algorithms", "mondrian,tp", "--release", "m3", "--html", str(html), "--quiet",
    )  # fmt: skip
    lines = text.splitlines()
    assert lines[1].split()[:3] == ["release", "l", "NCP"]
    assert re.match(r"\s+m3\s+3\s", next(x for x in lines if x.strip().startswith("m3")))
    assert "m3 was made for distinct (l=3), not for l = 4" in text and "not comparable on privacy" in text
    assert "dominated by m3" not in text and "m3 is dominated" not in text
    notes = text.split("\n  - ")[2:]  # after the note on m3, no ranking names it
    assert notes and not any(re.search(r"\bm3\b", n) and "1/l" not in n for n in notes), notes
    page = _page(html, "data-label")
    assert page.values["m3"]["l"][0] == "3" and page.values["mondrian"]["l"][0] == "4"
    assert 'data-label="m3" data-status="external" data-comparable="no"' in html.read_text(encoding="utf-8")
    # one unit per metric: the same release's NCP reads the same on the report page
    rep = tmp_path / "r.html"
    _run(capsys, "report", str(db), "--release", "census_cmp_mondrian", "--html", str(rep))
    shown = _page(rep, "data-release").values["main.census_cmp_mondrian"]["ncp"][1]
    assert shown == page.values["mondrian"]["ncp"][1] and shown.endswith(" %")
