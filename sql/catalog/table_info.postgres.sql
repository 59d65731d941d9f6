-- purpose: the table or view a write target names in the working database (matched case-insensitively), as the catalog spells it (PostgreSQL: materialized views too, which the information schema leaves out)
-- params: schema, name
-- returns: schema, name, kind (0 or 1 row)
-- ref: DESIGN §6 (ldiv_db drops or replaces only its own releases); ldiv_db/core/ownership.py; catalog/table_info.sql
SELECT table_schema AS schema, table_name AS name, table_type AS kind
FROM information_schema.tables
WHERE table_catalog = current_database()
  AND lower(table_schema) = lower($schema)
  AND lower(table_name) = lower($name)
UNION ALL
SELECT n.nspname AS schema, c.relname AS name, 'MATERIALIZED VIEW' AS kind
FROM pg_catalog.pg_class AS c
JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
WHERE c.relkind = 'm'
  AND lower(n.nspname) = lower($schema)
  AND lower(c.relname) = lower($name)
