/* purpose: drop the hierarchy row stored for (table, column); run after delete_levels and delete_nodes */
/* params: table_name, column_name */
/* returns: nothing */
/* ref: SPEC §0.4 */
DELETE FROM ldiv.hierarchy
WHERE
  table_name = $table_name AND column_name = $column_name
