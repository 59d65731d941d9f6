-- purpose: attach a DuckDB database file (or ':memory:', a scratch catalog) under an alias (DuckDB engine only)
-- params: path
-- returns: nothing
-- ref: ldiv_db/db/duckdb/engine.py (attach: --attach NAME=PATH; scratch_catalog)
ATTACH $path AS {{ alias | ident }}{% if mode == "read_only" %} (READ_ONLY){% elif mode == "read_write" %} (READ_WRITE){% endif %}
