-- purpose: the databases the connection sees but DuckDB's own (system, temp), each with whether it is read-only, and on every row the connection's temporary tables and views counted and its current schema and search path: what decides whether the table list and a table's rows may have changed since they were read
-- params: none
-- returns: name, read_only, temporary_objects, schema_path
-- ref: DESIGN §3 (names come from the catalog); issue 57 item 1, round 5: on a file open read-only with nothing attached and no temporary table or view, the table list and the NULL counts are kept while this statement shows the same (ldiv_db/db/duckdb/engine.py: DuckDBDatabase._catalog_rows)
SELECT
    d.database_name AS name,
    d.readonly AS read_only,
    (SELECT count(*) FROM duckdb_tables() WHERE temporary)
        + (SELECT count(*) FROM duckdb_views() WHERE temporary AND NOT internal) AS temporary_objects,
    current_database() || '.' || current_schema() || ';' || current_setting('search_path') AS schema_path
FROM duckdb_databases() AS d
WHERE NOT d.internal
