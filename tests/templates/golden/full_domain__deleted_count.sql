/* purpose: number of rows an assignment deletes */
/* params: none */
/* returns: deleted */
/* ref: DESIGN §6 (row counts reconcile) */
SELECT
  COUNT(*) FILTER(WHERE
    deleted) AS deleted
FROM "temp"."main"."wk assignment's"
