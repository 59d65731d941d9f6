/* purpose: the sensitivity categories stored for (table, SA column) */
/* params: table_name, column_name */
/* returns: value, category (ordered by category, then value) */
/* ref: SPEC §3.1 */
SELECT
  value,
  category
FROM ldiv.sa_category
WHERE
  table_name = (
    CAST(%(table_name)s AS TEXT)
  )
  AND column_name = (
    CAST(%(column_name)s AS TEXT)
  )
ORDER BY
  category,
  value
