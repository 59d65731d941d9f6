/* purpose: drop the leaf-to-level map of the hierarchy stored for (table, column), before replacing it */
/* params: table_name, column_name */
/* returns: nothing */
/* ref: SPEC §0.4 */
DELETE FROM ldiv.hierarchy_level
WHERE
  hierarchy_id IN (
    SELECT
      hierarchy_id
    FROM ldiv.hierarchy
    WHERE
      table_name = (
        CAST(%(table_name)s AS TEXT)
      )
      AND column_name = (
        CAST(%(column_name)s AS TEXT)
      )
  )
