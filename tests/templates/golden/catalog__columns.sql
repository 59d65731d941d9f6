/* purpose: the columns of one resolved table, in table order */
/* params: catalog, schema, name */
/* returns: name, data_type, position */
/* ref: DESIGN §3 */
SELECT
  column_name AS name,
  data_type,
  ordinal_position AS position
FROM information_schema."columns"
WHERE
  table_catalog = $catalog AND table_schema = $schema AND table_name = $name
ORDER BY
  ordinal_position
