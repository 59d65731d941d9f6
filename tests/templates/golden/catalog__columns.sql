/* purpose: the columns of one resolved table, in table order */
/* params: catalog, schema, name */
/* returns: name, data_type, position */
/* ref: DESIGN §3. The rows of DuckDB's information_schema.columns, read from the catalog function that view is defined on (duckdb_columns(), the columns not internal) without its other columns, which cost a lookup as much again (issue 57 item 1) */
SELECT
  column_name AS name,
  data_type,
  column_index AS position
FROM DUCKDB_COLUMNS()
WHERE
  NOT internal
  AND database_name = $catalog
  AND schema_name = $schema
  AND table_name = $name
ORDER BY
  column_index
