/* purpose: top-down specialization: the values of topdown/values.sql, to name the codes of topdown/rows.sql */
/* params: none */
/* returns: col, code, value ordered by col, code */
/* ref: SPEC §3.3 */
SELECT
  col,
  code,
  value
FROM "pg_temp"."wk td values's"
ORDER BY
  col,
  code
