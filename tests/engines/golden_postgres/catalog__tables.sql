/* purpose: every table and view the connection can see (all attached catalogs), for name resolution */
/* params: none */
/* returns: catalog, schema, name, kind, is_default */
/* ref: DESIGN §3 (names come from the catalog, matched case-insensitively) */
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
ORDER BY
  is_default DESC NULLS LAST,
  catalog,
  schema,
  name
