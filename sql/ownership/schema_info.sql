-- purpose: where a write target's schema part points: a schema of the working database, or an attached database of that name
-- params: schema
-- returns: schema (the working database's spelling, NULL if none), attached (an attached database of that name), read_only
-- ref: ldiv_db/core/ownership.py (outputs are written into an existing schema of the working database)
SELECT
    (SELECT min(schema_name) FROM information_schema.schemata
     WHERE catalog_name = current_database() AND lower(schema_name) = lower($schema)) AS schema,
    (SELECT count(*) > 0 FROM duckdb_databases()
     WHERE lower(database_name) = lower($schema) AND database_name <> current_database()) AS attached,
    (SELECT coalesce(bool_or(readonly), false) FROM duckdb_databases()
     WHERE lower(database_name) = lower($schema) AND database_name <> current_database()) AS read_only
