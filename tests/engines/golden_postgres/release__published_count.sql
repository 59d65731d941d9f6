/* purpose: how many rows an assignment publishes, before anything is written (an empty release is refused unless asked for) */
/* params: none */
/* returns: assigned, published, rid_lo, rid_hi (the least and greatest row id assigned, NULL without one: the range in which */
/*          release/reconcile.sql may count the distinct row ids as a bitmap) */
/* ref: DESIGN §6 (a guarantee that was asked for is kept and verified, or the run is refused) */
SELECT
  COUNT(*) AS assigned,
  COUNT(*) FILTER(WHERE
    NOT deleted) AS published,
  MIN(rid) AS rid_lo,
  MAX(rid) AS rid_hi
FROM "pg_temp"."wk assignment's"
