-- purpose: the databases the connection sees but DuckDB's own (system, temp), each with whether it is read-only: what decides whether the table list and a table's rows may have changed since they were read
-- params: none
-- returns: name, read_only
-- ref: DESIGN §3 (names come from the catalog); issue 57 item 1, round 5: on a file open read-only with nothing attached, the table list and the NULL counts are kept while this statement shows only the file (ldiv_db/db/duckdb/engine.py: DuckDBDatabase._catalog_rows)
SELECT database_name AS name, readonly AS read_only
FROM duckdb_databases()
WHERE NOT internal
