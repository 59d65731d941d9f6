/* purpose: number of rows of a table */
/* params: none */
/* returns: n */
/* ref: DESIGN §6 (row counts reconcile exactly) */
SELECT
  COUNT(*) AS n
FROM "main"."select"
