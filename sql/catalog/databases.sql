-- purpose: what decides whether the table list and a table's rows may have changed since they were read, one row each: the databases the connection sees but DuckDB's own (system, temp) with whether each is read-only, the connection's temporary tables and views, and its current database, schema and search path
-- params: none
-- returns: kind, name, read_only. kind 'database': name, read_only; kind 'temporary': a temporary table's or view's name (read_only NULL); kind 'path', one row: name = current database . current schema ; search path (read_only NULL)
-- ref: DESIGN §3 (names come from the catalog); issue 57 item 1, round 5: on a file open read-only with nothing attached and no temporary table or view, the table list and the NULL counts are kept while this statement shows the same (ldiv_db/db/duckdb/engine.py: DuckDBDatabase._catalog_rows); round 6: the listings as branches of one UNION ALL, where the temporary objects were counted in two scalar subqueries beside every database
SELECT 'database' AS kind, database_name AS name, readonly AS read_only
FROM duckdb_databases()
WHERE NOT internal
UNION ALL
SELECT 'temporary', table_name, NULL
FROM duckdb_tables()
WHERE temporary
UNION ALL
SELECT 'temporary', view_name, NULL
FROM duckdb_views()
WHERE temporary AND NOT internal
UNION ALL
SELECT 'path', current_database() || '.' || current_schema() || ';' || current_setting('search_path'), NULL
