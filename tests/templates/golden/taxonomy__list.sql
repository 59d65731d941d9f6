/* purpose: stored hierarchies, optionally only those of one table and/or column (NULL = any) */
/* params: table_name, column_name */
/* returns: table, column, kind, height, leaves, nodes, source, hierarchy_id */
/* ref: SPEC §0.4; DESIGN §2 (taxonomies live in schema ldiv) */
SELECT
  table_name AS "table",
  column_name AS "column",
  kind,
  height,
  leaves,
  nodes,
  source,
  hierarchy_id
FROM ldiv.hierarchy
WHERE
  (
    CAST($table_name AS TEXT) IS NULL OR table_name = $table_name
  )
  AND (
    CAST($column_name AS TEXT) IS NULL OR column_name = $column_name
  )
ORDER BY
  table_name,
  column_name
