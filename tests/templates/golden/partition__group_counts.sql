/* purpose: the SA counts of every group with at least $min_values distinct values, in descending order (r_1 ≥ r_2 ≥ …), for the recursive (c,l) tests */
/* params: min_values */
/* returns: creates target(gid, s, counts, ones): ones = 0, every count is in the list (partition/stats_counts.sql's form, whose lists leave out the ones) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity); groups with fewer than l values fail without their counts */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk counts's" AS
SELECT
  hs.gid,
  hs.s,
  ARRAY_AGG(hs.n ORDER BY hs.n DESC) AS counts,
  CAST(0 AS BIGINT) AS ones
FROM "temp"."main"."tpl it's_hist" AS hs
JOIN "temp"."main"."tpl it's_stats" AS g
  ON g.gid = hs.gid AND g.s = hs.s
WHERE
  NOT hs.unknown AND g.n_values >= $min_values
GROUP BY
  hs.gid,
  hs.s
