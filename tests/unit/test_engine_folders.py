"""One folder per engine (decision 0021): each engine's class derives from the abstract base and from
nothing of another engine, and no module of an engine's folder imports another engine's folder."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ldiv_db.db.base import Database

DB = Path(__file__).resolve().parents[2] / "ldiv_db" / "db"
ENGINES = sorted(p.name for p in DB.iterdir() if (p / "engine.py").exists())


def _imported(path: Path) -> set[str]:
    """The modules ``path`` imports, as dotted names relative to ``ldiv_db.db`` where they are inside it."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 2:  # from ..x import y, in db/<engine>/
                out.add(node.module or "")
            elif node.level == 0 and (node.module or "").startswith("ldiv_db.db."):
                out.add((node.module or "").removeprefix("ldiv_db.db."))
        elif isinstance(node, ast.Import):
            out |= {
                a.name.removeprefix("ldiv_db.db.") for a in node.names if a.name.startswith("ldiv_db.db.")
            }
    return out


def test_the_engines_are_the_three_folders() -> None:
    assert ENGINES == ["duckdb", "postgres", "spark"]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_folder_imports_no_other_engine(engine: str) -> None:
    others = set(ENGINES) - {engine}
    for path in (DB / engine).glob("*.py"):
        hit = {m for m in _imported(path) if m.split(".")[0] in others}
        assert not hit, f"{path.relative_to(DB.parent)} imports {sorted(hit)}"


def test_every_engine_class_derives_from_the_base_and_no_other_engine() -> None:
    from ldiv_db.db.duckdb.engine import DuckDBDatabase

    classes = [DuckDBDatabase]
    for name, module in (("PostgresDatabase", "postgres"), ("SparkDatabase", "spark")):
        found = pytest.importorskip(f"ldiv_db.db.{module}.engine")  # the drivers are optional
        classes.append(getattr(found, name))
    for cls in classes:
        assert issubclass(cls, Database) and not getattr(cls, "__abstractmethods__", None)
        engines = [c for c in cls.__mro__[1:] if issubclass(c, Database) and c is not Database]
        assert not engines, f"{cls.__name__} derives from {engines}"
