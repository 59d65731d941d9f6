-- purpose: detach a database this connection attached (DuckDB engine only)
-- params: none
-- returns: nothing
-- ref: ldiv_db/db/duckdb/engine.py (scratch_catalog, close: a connection ldiv_db was handed is left as found)
DETACH {{ alias | ident }}
