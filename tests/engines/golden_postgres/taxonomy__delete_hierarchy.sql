/* purpose: drop the hierarchy row stored for (table, column); run after delete_levels and delete_nodes */
/* params: table_name, column_name */
/* returns: nothing */
/* ref: SPEC §0.4 */
DELETE FROM ldiv.hierarchy
WHERE
  table_name = (
    CAST(%(table_name)s AS TEXT)
  )
  AND column_name = (
    CAST(%(column_name)s AS TEXT)
  )
