/* purpose: the buckets of one SA: every value with its number of rows, largest first (n_1 ≥ n_2 ≥ …) */
/* params: none */
/* returns: v, n */
/* ref: SPEC §2.1 (buckets), §2.3 (optimal l = max{2, ⌊n/n_1⌋}) */
SELECT
  CAST("ünï" AS TEXT) AS v,
  COUNT(*) AS n
FROM "main"."select"
GROUP BY
  1
ORDER BY
  n DESC NULLS LAST,
  v
