/* purpose: how many stored category values of (table, SA column) do not occur in the column (allowed: a categorization may cover a wider domain) */
/* params: table_name, column_name */
/* returns: one row: n */
/* ref: SPEC §3.1 */
SELECT
  COUNT(*) AS n
FROM ldiv.sa_category AS cat
WHERE
  cat.table_name = (
    CAST(%(table_name)s AS TEXT)
  )
  AND cat.column_name = (
    CAST(%(column_name)s AS TEXT)
  )
  AND NOT EXISTS(
    SELECT
      1
    FROM "main"."select" AS src
    WHERE
      CAST(src."ünï" AS TEXT) = cat.value
  )
