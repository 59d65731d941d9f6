-- purpose: the temporary tables and views that hide a table of the working database from a statement naming it schema.table (DuckDB looks in its temp catalog first)
-- params: schema, name
-- returns: kind (0 or more rows: each temporary object of that schema and name, matched case-insensitively)
-- ref: DESIGN §6 (ldiv_db reads, drops or replaces only the tables it names); ldiv_db/core/ownership.py: existing
SELECT 'table' AS kind
FROM duckdb_tables()
WHERE temporary AND lower(schema_name) = lower($schema) AND lower(table_name) = lower($name)
UNION ALL
SELECT 'view'
FROM duckdb_views()
WHERE temporary AND NOT internal AND lower(schema_name) = lower($schema) AND lower(view_name) = lower($name)
