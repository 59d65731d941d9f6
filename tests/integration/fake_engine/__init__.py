"""A fake engine, added the way a new one is (docs/concepts/engines.md, "Adding an engine"): one folder with
its dialect (``dialect.py``) and its class (``engine.py``), registered through ``ldiv_db.db.register_engine``.
It runs on an in-memory DuckDB under another name, so the test can compare it with DuckDB itself."""

from __future__ import annotations

from ldiv_db.db import register_engine

from .engine import SCHEME, FakeDatabase

register_engine(lambda target: target.startswith(SCHEME), FakeDatabase.connect)
