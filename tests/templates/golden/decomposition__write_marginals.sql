/* purpose: write the marginals T_S: the true joint SA values of every published row, with no group id, sorted (not in row order) */
/* params: none */
/* returns: creates output(<SA columns>) ordered by all columns */
/* ref: SPEC §4.1 (marginals; sorted so they cannot be aligned with the QID-table) */
/*      all_placed: the release assigned every pool row, so the pool's rows are the published ones (no join); */
/*      the reconciliation compares the marginals' counts with the pool rows joined to the assignment */
CREATE TABLE "main"."out it's_marginals" AS
SELECT
  *
FROM (
  SELECT
    *
  FROM "temp"."main"."wk dec prev's"
  UNION ALL
  SELECT
    p."c6" AS "ünï",
    p."c7" AS "order"
  FROM "temp"."main"."wk dec pool's" AS p
  JOIN "temp"."main"."wk dec assignment's" AS a
    ON a.rk = p.rk
)
ORDER BY
  ALL
