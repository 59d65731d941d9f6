/* purpose: how many rows an assignment publishes, before anything is written (an empty release is refused unless asked for) */
/* params: none */
/* returns: assigned, published */
/* ref: DESIGN §6 (a guarantee that was asked for is kept and verified, or the run is refused) */
SELECT
  COUNT(*) AS assigned,
  COUNT(*) FILTER(WHERE
    NOT deleted) AS published
FROM "pg_temp"."wk assignment's"
