/* purpose: the columns of one resolved table, in table order */
/* params: catalog, schema, name */
/* returns: name, data_type, position */
/* ref: DESIGN §3 */
SELECT
  column_name AS name,
  data_type,
  ordinal_position AS position
FROM information_schema.columns
WHERE
  table_catalog = (
    CAST(%(catalog)s AS TEXT)
  )
  AND table_schema = (
    CAST(%(schema)s AS TEXT)
  )
  AND table_name = (
    CAST(%(name)s AS TEXT)
  )
ORDER BY
  ordinal_position
