-- purpose: make a catalog the connection's current database (DuckDB engine only)
-- params: none
-- returns: nothing
-- ref: ldiv_db/db/duckdb/engine.py (scratch_catalog; side_reader resolves names as its connection does)
USE {{ catalog | ident }}
