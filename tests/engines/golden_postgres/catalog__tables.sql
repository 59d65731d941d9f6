/* purpose: every table and view the connection can see, for name resolution (PostgreSQL: the information schema's tables and views, and the materialized views it leaves out, those the role may read) */
/* params: none */
/* returns: catalog, schema, name, kind, is_default */
/* ref: DESIGN §3 (names come from the catalog, matched case-insensitively); catalog/tables.sql */
SELECT
  table_catalog AS catalog,
  table_schema AS schema,
  table_name AS name,
  table_type AS kind,
  (
    table_catalog = CURRENT_DATABASE() AND table_schema = CURRENT_SCHEMA
  ) AS is_default
FROM information_schema.tables
WHERE
  NOT table_schema IN ('ldiv', 'information_schema', 'pg_catalog')
UNION ALL
SELECT
  CURRENT_DATABASE() AS catalog,
  n.nspname AS schema,
  c.relname AS name,
  'MATERIALIZED VIEW' AS kind,
  n.nspname = CURRENT_SCHEMA AS is_default
FROM pg_catalog.pg_class AS c
JOIN pg_catalog.pg_namespace AS n
  ON n.oid = c.relnamespace
WHERE
  c.relkind = 'm'
  AND NOT n.nspname IN ('ldiv', 'information_schema', 'pg_catalog')
  AND HAS_TABLE_PRIVILEGE(c.oid, 'SELECT')
ORDER BY
  is_default DESC NULLS LAST,
  catalog,
  schema,
  name
