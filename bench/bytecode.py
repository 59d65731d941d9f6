"""Byte-compiling a measured tree before its processes are timed.

This machine's environment sets ``PYTHONDONTWRITEBYTECODE``: a module changed since its ``.pyc`` was written
(or a tree never compiled: an exported commit, a fresh worktree) is compiled again in every process that
imports it, which a bench would time as the tree's cost. An installed package is byte-compiled when pip
installs it, so the benches measure a compiled tree (bench/results/history.md, "Fixed costs", Round 7).
"""

from __future__ import annotations

import compileall
from pathlib import Path


def compile_tree(tree: Path) -> None:
    """Write the bytecode of ``tree``'s ``ldiv_db`` and ``bench`` packages where it is missing or stale. A
    tree that cannot be written (an export made read-only) is measured as it is."""
    for package in ("ldiv_db", "bench"):
        if (tree / package).is_dir():
            compileall.compile_dir(tree / package, quiet=1)
