"""Prints how many documentation examples ran, and lists those skipped by declaration."""

from __future__ import annotations

from typing import Any

import pytest


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run = 0
    skipped: list[str] = []
    for report in terminalreporter.stats.get("passed", []):
        props = dict(getattr(report, "user_properties", []))
        run += int(props.get("docs_blocks_run", 0))
        skipped += list(props.get("docs_blocks_skipped", []))
    if run or skipped:
        terminalreporter.write_line(f"docs examples: {run} blocks run, {len(skipped)} skipped by declaration")
        for where in sorted(set(skipped)):
            terminalreporter.write_line(f"  skipped: {where}")
