"""Small table helpers shared by the integration tests."""

from __future__ import annotations

import pandas as pd

from ldiv_db.db import Database


def make_table(db: Database, name: str, frame: pd.DataFrame) -> None:
    """Create (or replace) table ``name`` in the main schema holding ``frame``."""
    db.con.register("__frame", frame)
    db.con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM __frame')
    db.con.unregister("__frame")
