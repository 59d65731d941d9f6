"""The report and the comparison page in a real browser (headless Chromium, offline): no console
messages, no network requests, every chart drawn with the bars/points the data calls for. Screenshots
go to ``$LDIV_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb

import ldiv_db
from tests.report_env import QI, SA, ReportEnv

from .chromium import PageView, open_page, require_browser


def _shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("LDIV_SCREENSHOTS") or tmp_path)


def _common(view: PageView) -> dict[str, dict]:  # type: ignore[type-arg]
    assert view.console == [], f"console messages: {view.console}"
    assert view.requests == [], f"network requests: {view.requests}"
    charts = {c["name"]: c for c in view.charts}
    for c in view.charts:
        assert c["width"] > 100 and c["height"] > 100, c  # rendered, with a real size
        assert c["elements"] > 20, c  # a non-empty SVG
        # what the SVG really draws (groups with a non-empty box) equals what the page says it draws
        assert (c["bars"], c["points"]) == (c["expect_bars"], c["expect_points"]), c
        assert c["bars"] + c["points"] > 0, c
    return charts


def test_report_page_in_chromium(report_env: ReportEnv, tmp_path: Path) -> None:
    require_browser()
    shot = _shots(tmp_path) / "report.png"
    view = open_page(report_env.report_html, shot)
    charts = _common(view)
    assert view.title.startswith("ldiv_db report")
    # 7 charts per release: sizes, distinct, entropy, confidence, risk, QI NCP, SA (source vs release)
    assert len(charts) == 7 * len(report_env.releases)
    con = duckdb.connect(str(report_env.db), read_only=True)
    for i, rel in enumerate(report_env.releases, 1):
        cols = ", ".join(f'"{c}"' for c in QI)
        n_sizes = con.execute(
            f"SELECT count(DISTINCT n) FROM (SELECT count(*) n FROM {rel} GROUP BY {cols})"
        ).fetchone()
        assert n_sizes is not None
        expected = n_sizes[0] if n_sizes[0] <= 30 else None
        if expected is not None:
            assert charts[f"r{i}-class-sizes"]["bars"] == expected
        assert charts[f"r{i}-risk"]["bars"] == 3
        assert charts[f"r{i}-qi-ncp"]["bars"] == len(QI)
        values = con.execute(f'SELECT count(DISTINCT "{SA}") FROM census').fetchone()
        assert values is not None
        # source and release bars per SA value (15 shown, the rest summed into one pair)
        assert charts[f"r{i}-sa"]["bars"] == 2 * min(values[0], 16)
    con.close()
    assert shot.stat().st_size > 10_000


RED = "rgb(181, 68, 59)"  # --bad in templates/base.html
GREEN = "rgb(47, 125, 74)"  # --ok


def test_a_changed_release_is_headlined_in_red_without_its_verdict(
    report_env: ReportEnv, tmp_path: Path
) -> None:
    """One SA value of a release changed by hand: the page's headline is red and says so, no ✔; the
    untouched release beside it keeps its green ✔ (ldiv_db/core/release_state.py)."""
    require_browser()
    db = tmp_path / "changed.duckdb"
    shutil.copy(report_env.db, db)
    con = duckdb.connect(str(db))
    con.execute(f"UPDATE rel_mondrian SET \"{SA}\" = 'flu' WHERE rowid = 0")
    con.close()
    page = tmp_path / "changed.html"
    ldiv_db.report(str(db), ["rel_mondrian", "rel_tp"], html=str(page))
    view = open_page(page, _shots(tmp_path) / "changed.png")
    _common(view)
    changed, intact = view.verdicts
    assert changed["state"] == "changed" and "CHANGED since verification" in changed["text"], changed
    assert "✔" not in changed["text"] and changed["color"] == RED, changed
    assert intact["state"] == "intact" and "✔" in intact["text"] and intact["color"] == GREEN, intact
    assert all(v["width"] > 100 and v["height"] > 10 for v in view.verdicts), view.verdicts


def test_compare_page_in_chromium(report_env: ReportEnv, tmp_path: Path) -> None:
    require_browser()
    shot = _shots(tmp_path) / "compare.png"
    view = open_page(report_env.compare_html, shot)
    charts = _common(view)
    measured = [e for e in report_env.compare.entries if e.facts is not None]
    assert charts["cmp-tradeoff"]["points"] == len(measured)
    for key in ("ncp", "dm", "rows-deleted", "cells-suppressed", "classes", "max-confidence"):
        assert charts[f"cmp-{key}"]["bars"] == len(measured)
    assert charts["cmp-seconds"]["bars"] == len([e for e in measured if e.seconds is not None])
    assert len([n for n in charts if n.endswith("-class-sizes")]) == len(measured)
    assert view.numbers["ncp"] and len(view.numbers["ncp"]) == len(measured)
    assert shot.stat().st_size > 10_000


def test_the_checks_see_console_errors_and_requests(tmp_path: Path) -> None:
    """The harness itself: a page that logs an error and fetches an image is caught on both counts."""
    require_browser()
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><head><title>bad</title></head><body>"
        '<img src="http://example.invalid/x.png"><script>console.error("boom")</script></body></html>',
        encoding="utf-8",
    )
    view = open_page(bad, tmp_path / "bad.png")
    assert any("boom" in str(m.get("message")) for m in view.console)
    assert "http://example.invalid/x.png" in view.requests
