-- purpose: every table and view the connection can see (all attached catalogs), for name resolution
-- params: none
-- returns: catalog, schema, name, kind, is_default
-- ref: DESIGN §3 (names come from the catalog, matched case-insensitively). The rows and kinds of DuckDB's information_schema.tables, read from the catalog functions that view is defined on (duckdb_tables(), the views not internal) without its other columns, which cost a lookup as much again (issue 57 item 1)
SELECT
    database_name AS catalog,
    schema_name AS schema,
    table_name AS name,
    CASE WHEN temporary THEN 'LOCAL TEMPORARY' ELSE 'BASE TABLE' END AS kind,
    (database_name = current_database() AND schema_name = current_schema()) AS is_default
FROM duckdb_tables()
WHERE schema_name NOT IN ('ldiv', 'information_schema', 'pg_catalog')
UNION ALL
SELECT
    database_name,
    schema_name,
    view_name,
    'VIEW',
    (database_name = current_database() AND schema_name = current_schema())
FROM duckdb_views()
WHERE NOT internal AND schema_name NOT IN ('ldiv', 'information_schema', 'pg_catalog')
ORDER BY is_default DESC, catalog, schema, name
