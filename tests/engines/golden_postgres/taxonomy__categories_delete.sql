/* purpose: drop the sensitivity categories stored for (table, SA column) before storing new ones */
/* params: table_name, column_name */
/* returns: nothing */
/* ref: SPEC §3.1 (an SA's values in ordered categories, 1 = most sensitive) */
DELETE FROM ldiv.sa_category
WHERE
  table_name = (
    CAST(%(table_name)s AS TEXT)
  )
  AND column_name = (
    CAST(%(column_name)s AS TEXT)
  )
