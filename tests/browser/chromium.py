"""Headless Chromium through selenium and Debian's chromium-driver, strictly offline.

``open_page`` loads a local HTML file and returns what the page tests check: the browser console's
messages, every network request the page made (from the DevTools performance log), and the drawn charts
(per ``figure.chart``: the bars and points the SVG really contains, and the SVG's rendered size).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = ("chromedriver",)


def _which(names: tuple[str, ...]) -> str | None:
    for n in names:
        found = shutil.which(n) or (f"/usr/bin/{n}" if Path(f"/usr/bin/{n}").exists() else None)
        if found:
            return found
    return None


def require_browser() -> tuple[str, str]:
    """The chromium and chromedriver paths; skip when missing, unless CI or LDIV_REQUIRE_BROWSER is set."""
    browser, driver = _which(CHROMIUM), _which(DRIVER)
    try:
        import selenium  # noqa: F401
    except ImportError:
        browser = None
    if browser and driver:
        return browser, driver
    msg = "headless Chromium, chromedriver and selenium are needed (apt-get install chromium chromium-driver)"
    if os.environ.get("CI") or os.environ.get("LDIV_REQUIRE_BROWSER"):
        pytest.fail(msg)
    pytest.skip(msg)


@dataclass
class PageView:
    console: list[dict[str, Any]]
    requests: list[str]
    charts: list[dict[str, Any]]
    title: str
    numbers: dict[str, list[str]]
    verdicts: list[dict[str, Any]]


_CHARTS_JS = """
return Array.from(document.querySelectorAll('figure.chart')).map(function (f) {
  var svg = f.querySelector('svg');
  var name = f.getAttribute('data-chart');
  var box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  function drawn(sel) {
    return Array.from(svg ? svg.querySelectorAll(sel) : []).filter(function (g) {
      var b = g.getBBox(); return g.querySelector('path, use') && (b.width > 0 || b.height > 0);
    }).length;
  }
  return {name: name, bars: drawn('g[id^="' + name + '-bar-"]'), points: drawn('g[id^="' + name + '-pt-"]'),
          expect_bars: +f.getAttribute('data-bars'), expect_points: +f.getAttribute('data-points'),
          width: box.width, height: box.height, elements: svg ? svg.querySelectorAll('*').length : 0};
});
"""

_NUMBERS_JS = """
var out = {};
document.querySelectorAll('[data-key]').forEach(function (e) {
  var k = e.getAttribute('data-key'); (out[k] = out[k] || []).push(e.getAttribute('data-value'));
});
return out;
"""

_VERDICTS_JS = """
return Array.from(document.querySelectorAll('.verdict')).map(function (e) {
  var box = e.getBoundingClientRect();
  return {state: e.getAttribute('data-state'), text: e.textContent, color: getComputedStyle(e).color,
          width: box.width, height: box.height};
});
"""


def open_page(html: Path, screenshot: Path) -> PageView:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = require_browser()
    profile = tempfile.mkdtemp(prefix="ldiv-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-default-apps",
        "--no-first-run",
        "--no-default-browser-check",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=driver_path))
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
        })  # fmt: skip
        driver.get(html.resolve().as_uri())
        charts = driver.execute_script(_CHARTS_JS)
        numbers = driver.execute_script(_NUMBERS_JS)
        verdicts = driver.execute_script(_VERDICTS_JS)
        title = driver.title
        _full_screenshot(driver, screenshot)
        console = driver.get_log("browser")
        requests = _page_requests(driver.get_log("performance"), html.resolve().as_uri())
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return PageView(console, requests, charts, title, numbers, verdicts)


def _page_requests(log: list[dict[str, Any]], page_url: str) -> list[str]:
    """Every request the page itself made (the browser's own start-up pages excluded), the page's own
    file excepted: a self-contained page makes none."""
    out = []
    for entry in log:
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") != "Network.requestWillBeSent":
            continue
        params = msg["params"]
        url = params["request"]["url"]
        if params.get("documentURL") == page_url and url != page_url:
            out.append(url)
    return out


def _full_screenshot(driver: Any, path: Path) -> None:
    """The whole page, not only the window: DevTools' captureBeyondViewport."""
    import base64

    size = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];"
    )
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1},
        },
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))
