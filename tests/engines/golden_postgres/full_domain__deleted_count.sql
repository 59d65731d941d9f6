/* purpose: number of rows an assignment deletes */
/* params: none */
/* returns: deleted */
/* ref: DESIGN §6 (row counts reconcile) */
SELECT
  COUNT(*) FILTER(WHERE
    deleted) AS deleted
FROM "pg_temp"."wk assignment's"
