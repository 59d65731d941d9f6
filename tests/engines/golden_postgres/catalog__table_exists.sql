/* purpose: does a table or view exist (catalog NULL = the current database) */
/* params: catalog, schema, name */
/* returns: present */
/* ref: DESIGN §6 (refuse to overwrite an output without --replace) */
SELECT
  COUNT(*) > 0 AS present
FROM information_schema.tables
WHERE
  table_catalog = COALESCE(NULL, CURRENT_DATABASE())
  AND table_schema = (
    CAST(%(schema)s AS TEXT)
  )
  AND LOWER(table_name) = LOWER((
    CAST(%(name)s AS TEXT)
  ))
