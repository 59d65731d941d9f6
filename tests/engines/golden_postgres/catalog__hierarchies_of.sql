/* purpose: the hierarchies stored for the columns of one table */
/* params: table_name */
/* returns: column_name, hierarchy_id, height, leaves */
/* ref: migrations/0001 (ldiv.hierarchy) */
SELECT
  column_name,
  hierarchy_id,
  height,
  leaves
FROM ldiv.hierarchy
WHERE
  table_name = (
    CAST(%(table_name)s AS TEXT)
  )
ORDER BY
  column_name
