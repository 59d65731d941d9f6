/* purpose: the table's row count and the NULL count per column (QI and SA columns must be NULL-free unless --null-as-value), in one scan */
/* params: none */
/* returns: rows, then one column per checked column, in the given order */
/* ref: DESIGN §6 (NULLs in QI/SA: say how many). A NULL count is the rows less the column's count of values, which DuckDB reads from a column's statistics where they show no NULL, where a filter per column was evaluated on every row (issue 57 item 1) */
SELECT
  COUNT(*) AS "rows",
  COUNT(*) - COUNT("it's") AS "n1",
  COUNT(*) - COUNT("a""b") AS "n2",
  COUNT(*) - COUNT("Zip Code") AS "n3",
  COUNT(*) - COUNT("select") AS "n4",
  COUNT(*) - COUNT("ünï") AS "n5"
FROM "main"."select"
