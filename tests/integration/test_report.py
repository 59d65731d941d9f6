"""ldiv report / ldiv compare: the numbers on the pages are those of ``ldiv check`` and ``ldiv metrics``
(read back from the page's ``data-value`` attributes), the distributions agree with pandas on the
release rows, compare writes only its own outputs, and bad input is a clear error."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.errors import BadInput
from tests.report_env import QI, SA, ReportEnv


class _Numbers(HTMLParser):
    """data-key/data-value pairs per section (report: per release; compare: per table row)."""

    def __init__(self, scope_attr: str) -> None:
        super().__init__()
        self.scope_attr = scope_attr
        self.scope: str | None = None
        self.values: dict[str | None, dict[str, str]] = {}
        self.charts: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self.scope_attr in a:
            self.scope = a[self.scope_attr]
        if "data-key" in a and a["data-key"] is not None:
            self.values.setdefault(self.scope, {})[a["data-key"]] = a.get("data-value") or ""
        if tag == "figure" and a.get("data-chart"):
            self.charts[str(a["data-chart"])] = int(a.get("data-bars") or 0) + int(a.get("data-points") or 0)


def _parse(html: Path, scope_attr: str) -> _Numbers:
    p = _Numbers(scope_attr)
    p.feed(html.read_text(encoding="utf-8"))
    return p


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code = main([*args, "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return json.loads(out)  # type: ignore[no-any-return]


def _close(a: str, b: float | int | None) -> bool:
    if b is None:
        return a == ""
    return abs(float(Fraction(a)) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


@pytest.mark.parametrize("release", ["rel_mondrian", "rel_tp"])
def test_report_numbers_equal_check_and_metrics(
    report_env: ReportEnv, capsys: pytest.CaptureFixture[str], release: str
) -> None:
    page = _parse(report_env.report_html, "data-release")
    shown = page.values[f"main.{release}"]
    db = str(report_env.db)
    chk = _cli_json(capsys, "check", db, "--table", release, "--qi", ",".join(QI), "--sa", SA)
    for key, ours in (
        ("classes", "classes"),
        ("k", "k"),
        ("distinct_l", "distinct_l"),
        ("entropy_l", "entropy_l"),
    ):
        assert _close(shown[ours], chk[key]), (key, shown[ours], chk[key])
    assert Fraction(shown["frequency_l"]) == Fraction(chk["frequency_l_exact"])
    extra = ["--interval-labels"] if release == "rel_mondrian" else []
    met = _cli_json(
        capsys, "metrics", db, "--source", "census", "--release", release, "--qi", ",".join(QI), "--sa", SA,
        "--l", "3", *extra,
    )  # fmt: skip
    for key in ("ncp", "il", "dm", "cavg", "kl", "stars", "arx_loss", "lm"):
        assert _close(shown[key], met[key]), (key, shown[key], met[key])
    assert int(shown["rows_published"]) == met["rows"]
    assert int(shown["rows_deleted"]) == met["deleted_rows"]


def test_report_distributions_match_the_rows(report_env: ReportEnv) -> None:
    """Class sizes, risk and the highest confidence re-derived from the release rows with pandas."""
    con = duckdb.connect(str(report_env.db), read_only=True)
    frame = con.execute("SELECT * FROM rel_mondrian").df()
    con.close()
    sizes = frame.groupby(QI).size()
    rows = int(sizes.sum())
    page = _parse(report_env.report_html, "data-release")
    shown = page.values["main.rel_mondrian"]
    assert Fraction(shown["risk_max"]) == Fraction(1, int(sizes.min()))
    assert Fraction(shown["risk_avg"]) == Fraction(len(sizes), rows)
    for t in ("1/20", "1/10", "1/5"):
        above = sum(int(s) for s in sizes if Fraction(1, int(s)) > Fraction(t))
        assert Fraction(shown[f"risk_above_{t}"]) == Fraction(above, rows)
    top = frame.groupby([*QI, SA]).size().groupby(level=list(range(len(QI)))).max()
    assert _close(shown["max_confidence"], float((top / sizes).max()))
    # one bar per distinct class size (at most 30 of them, else power-of-two bins)
    distinct_sizes = len(set(sizes.tolist()))
    expected = distinct_sizes if distinct_sizes <= 30 else len({int(s).bit_length() for s in sizes})
    assert page.charts["r1-class-sizes"] == expected
    # distinct-count histogram: one bar per distinct count of SA values in a class
    per_class = frame.groupby(QI)[SA].nunique()
    assert page.charts["r1-distinct"] == len(Counter(per_class.tolist()))
    assert page.charts["r1-qi-ncp"] == len(QI)


def test_report_of_an_external_table_and_api(report_env: ReportEnv) -> None:
    res = ldiv_db.report(str(report_env.db), "other_tool", source="census", qi=QI, sa=SA, l=3)
    f = res.releases[0]
    assert f.recorded is None and f.verdict["verified"] is False  # age '*' alone leaves classes 1-diverse
    assert f.rows_published == 3000 and f.metrics["stars"] == 3000
    # every age cell is '*', the other QIs are unchanged: NCP is 1 on age and 0 elsewhere
    assert [round(v, 12) for _, v, _ in f.qi_ncp] == [1.0, 0.0, 0.0, 0.0]


def test_report_bad_input(report_env: ReportEnv) -> None:
    with pytest.raises(BadInput, match="not a release recorded"):
        ldiv_db.report(str(report_env.db), "other_tool")
    with pytest.raises(BadInput, match="unknown table"):
        ldiv_db.report(str(report_env.db), "no_such_table", source="census", qi=QI, sa=SA)
    with pytest.raises(BadInput, match="no release given"):
        ldiv_db.report(str(report_env.db), [])
    with pytest.raises(BadInput, match="is a folder"):
        ldiv_db.report(str(report_env.db), "rel_tp", html=str(report_env.db.parent))


def test_compare_page_and_outputs(report_env: ReportEnv) -> None:
    res = report_env.compare
    by = {e.label: e for e in res.entries}
    assert {k: by[k].status for k in ("bsgi", "mondrian", "tp", "full-domain", "other_tool")} == {
        "bsgi": "ok", "mondrian": "ok", "tp": "ok", "full-domain": "skipped", "other_tool": "external",
    }  # fmt: skip
    con = duckdb.connect(str(report_env.db), read_only=True)
    recorded = {r[0] for r in con.execute("SELECT name FROM ldiv.release").fetchall()}
    con.close()
    assert {"main.census_cmp_bsgi", "main.census_cmp_mondrian", "main.census_cmp_tp"} <= recorded
    page = _parse(report_env.compare_html, "data-label")
    for label in ("bsgi", "mondrian", "tp", "other_tool"):
        f = by[label].facts
        assert f is not None
        assert _close(page.values[label]["ncp"], f.metrics["ncp"])
        assert int(page.values[label]["classes"]) == f.check.groups
        assert int(page.values[label]["rows_deleted"]) == f.rows_deleted
        assert int(page.values[label]["cells_suppressed"]) == f.cells_suppressed
    measured = len([e for e in res.entries if e.facts is not None])
    assert page.charts["cmp-tradeoff"] == measured
    assert page.charts["cmp-ncp"] == measured
    assert any("dominated" in n or "Least information loss" in n for n in res.notes)
    assert report_env.compare_html.stat().st_size < 2_000_000


def test_compare_never_overwrites_a_table_it_did_not_write(tmp_path: Path, report_env: ReportEnv) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(report_env.db.read_bytes())
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE census_cmp_mondrian_x AS SELECT 1 AS a")
    con.execute("DROP TABLE census_cmp_tp")
    con.execute("CREATE TABLE census_cmp_tp AS SELECT 1 AS precious")  # someone else's table, same name
    con.close()
    with pytest.raises(
        BadInput, match=r"census_cmp_tp: ldiv_db wrote it as release .* but it has changed since"
    ):
        ldiv_db.compare(str(db), "census", QI, SA, 3, algorithms="tp")
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT * FROM census_cmp_tp").fetchall() == [(1,)]
    con.close()
    # its own earlier release is replaced
    again = ldiv_db.compare(str(db), "census", QI, SA, 3, algorithms="mondrian")
    assert again.entries[0].status == "ok"


def test_compare_cli_errors(report_env: ReportEnv, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", str(report_env.db), "--table", "census", "--qi", "age", "--sa", SA, "--l", "3",
                 "--algorithms", "nope"])  # fmt: skip
    _, err = capsys.readouterr()
    assert code == 2 and "unknown algorithm 'nope'" in err and "Traceback" not in err


def test_report_of_a_decomposition_release(tmp_path: Path) -> None:
    """Decomposition+ (Das & Bhattacharyya, Table 1): classes are the SA table's groups, the QIs are
    published unchanged (NCP 0), and the SA chart of a noised SA shows exactly the replaced copies."""
    from fixtures.papers import paper_tables
    from ldiv_db import taxonomy

    t = paper_tables()["decomposition_table1"]
    db = tmp_path / "dec.duckdb"
    with ldiv_db.Database.open(db) as con:
        ldiv_db.load(con, t.path, "dec", sep=";")
        for col, path in t.hierarchies.items():
            taxonomy.import_hierarchy(con, "dec", col, path)
    res = ldiv_db.anonymize(
        str(db), "dec", ["Gender", "Zip", "Birthday"], ["Occupation", "Salary"], algorithm="decomposition",
        l=[4, 4], output="dec_rel",
    )  # fmt: skip
    rep = ldiv_db.report(str(db), "dec_rel", html=str(tmp_path / "dec.html"))
    f = rep.releases[0]
    assert f.check.groups == res.groups and f.rows_published == res.rows_published
    assert [v for _, v, _ in f.qi_ncp] == [0.0, 0.0, 0.0]
    noise = int(res.details["noise"])
    changed = sum(abs(a - b) for _, a, b in f.sa_counts["Salary"]) // 2
    assert changed == noise
    assert all(a == b for _, a, b in f.sa_counts["Occupation"])  # the primary SA carries no noise
    page = _parse(tmp_path / "dec.html", "data-release")
    assert page.values["main.dec_rel"]["noise"] == str(noise)
    assert {"r1-sa", "r1-sa-1"} <= page.charts.keys()


def _copy(tmp_path: Path, report_env: ReportEnv) -> Path:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(report_env.db.read_bytes())
    return db


def _tables(db: Path) -> set[str]:
    con = duckdb.connect(str(db), read_only=True)
    names = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    con.close()
    return names


def test_html_never_replaces_data(
    tmp_path: Path, report_env: ReportEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """--html names a new file in an existing folder or an earlier page: the database itself (which
    report used to overwrite with the page), a CSV, an empty path or a missing folder are refused, for
    report and compare, before compare runs any algorithm."""
    db = _copy(tmp_path, report_env)
    csv = tmp_path / "data.csv"
    csv.write_text("a;b\n1;2\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (db, csv)}
    tables = _tables(db)
    cases = [
        (str(db), "already exists and is a DuckDB database"),
        (str(csv), "already exists and is a file that is not an HTML page"),
        ("", "the --html path is empty"),
        (str(tmp_path / "no" / "such" / "r.html"), "does not exist"),
    ]
    for html, problem in cases:
        for argv in (
            ["report", str(db), "--release", "rel_tp", "--html", html],
            ["compare", str(db), "--table", "census", "--qi", ",".join(QI), "--sa", SA, "--l", "3",
             "--algorithms", "mondrian", "--html", html, "--quiet"],
        ):  # fmt: skip
            code = main(argv)
            _, err = capsys.readouterr()
            assert code == 2 and problem in err and "hint:" in err, (argv, err)
    assert {p: p.read_bytes() for p in (db, csv)} == before
    assert _tables(db) == tables
    assert not (tmp_path / "no").exists()
    page = tmp_path / "r.html"
    for _ in range(2):  # a new page, then the same page replaced
        assert main(["report", str(db), "--release", "rel_tp", "--html", str(page)]) == 0
        assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    capsys.readouterr()


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (["--algorithms", "mondrian,MONDRIAN"], "--algorithms names mondrian twice"),
        (["--algorithms", ""], "names an empty algorithm"),
        (["--algorithms", "mondrian", "--alpha", "x"], "--alpha must be a number"),
        (["--algorithms", "mondrian", "--alpha", "-1"], "--alpha must be a number"),
        (["--algorithms", "mondrian", "--release", "nope"], "unknown table 'nope'"),
        (["--algorithms", "mondrian", "--l", "0"], "--l must be an integer of at least 1"),
        (["--algorithms", "full-domain"], "no release could be measured: full-domain skipped"),
        (["--algorithms", "mondrian", "--l", "99"], "no release could be measured: mondrian failed"),
    ],
)
def test_compare_refuses_before_writing(
    tmp_path: Path, report_env: ReportEnv, capsys: pytest.CaptureFixture[str], extra: list[str], problem: str
) -> None:
    """A repeated or empty algorithm list, an --alpha out of its range (used to fail topdown quietly, or
    be ignored) and an unknown --release (used to be refused after the releases were written) are
    refused before anything is written."""
    db = _copy(tmp_path, report_env)
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE census_cmp_mondrian")
    con.execute("DELETE FROM ldiv.release_row WHERE release_id IN "
                "(SELECT release_id FROM ldiv.release WHERE name = 'main.census_cmp_mondrian')")  # fmt: skip
    con.execute("DELETE FROM ldiv.release WHERE name = 'main.census_cmp_mondrian'")
    con.close()
    tables = _tables(db)
    argv = ["compare", str(db), "--table", "census", "--qi", ",".join(QI), "--sa", SA, "--quiet"]
    code = main([*argv, *extra] if "--l" in extra else [*argv, "--l", "3", *extra])
    _, err = capsys.readouterr()
    assert code == 2 and problem in err and "Traceback" not in err, err
    assert _tables(db) == tables


@pytest.mark.parametrize(
    ("l", "problem"), [("-1", "at least 2"), ("0", "at least 2"), ("99999999999999999999", "at most")]
)
def test_report_l_has_its_range(
    report_env: ReportEnv, capsys: pytest.CaptureFixture[str], l: str, problem: str
) -> None:
    """report --l used to take any integer: 0 and -1 drew a meaningless threshold, a huge one failed
    inside a query with "this is a bug in ldiv_db"."""
    code = main(["report", str(report_env.db), "--release", "rel_tp", "--l", l])
    _, err = capsys.readouterr()
    assert code == 2 and "--l must be" in err and problem in err and "bug" not in err, err
