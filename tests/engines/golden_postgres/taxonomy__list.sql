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
    CAST((
      CAST(%(table_name)s AS TEXT)
    ) AS TEXT) IS NULL
    OR table_name = (
      CAST(%(table_name)s AS TEXT)
    )
  )
  AND (
    CAST((
      CAST(%(column_name)s AS TEXT)
    ) AS TEXT) IS NULL
    OR column_name = (
      CAST(%(column_name)s AS TEXT)
    )
  )
ORDER BY
  table_name,
  column_name
