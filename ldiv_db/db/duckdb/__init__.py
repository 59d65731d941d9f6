"""DuckDB, the embedded default engine."""
