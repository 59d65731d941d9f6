-- purpose: where a write target's schema part points (PostgreSQL: no attached databases)
-- params: schema
-- returns: schema (the working database's spelling, NULL if none), attached, read_only
-- ref: ldiv_db/core/ownership.py; the DuckDB template schema_info.sql
SELECT
    (SELECT min(schema_name) FROM information_schema.schemata
     WHERE catalog_name = current_database() AND lower(schema_name) = lower($schema)) AS schema,
    false AS attached,
    false AS read_only
