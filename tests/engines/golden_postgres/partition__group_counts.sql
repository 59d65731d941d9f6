DROP TABLE IF EXISTS "pg_temp"."wk counts's";
/* purpose: the SA counts of every group with at least $min_values distinct values, in descending order (r_1 ≥ r_2 ≥ …), for the recursive (c,l) tests */
/* params: min_values */
/* returns: creates target(gid, s, counts, ones): ones = 0, every count is in the list (partition/stats_counts.sql's form, whose lists leave out the ones) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity); groups with fewer than l values fail without their counts */
CREATE TABLE "pg_temp"."wk counts's" AS
SELECT
  hs.gid,
  hs.s,
  ARRAY_AGG(hs.n ORDER BY hs.n DESC NULLS LAST) AS counts,
  CAST(0 AS BIGINT) AS ones
FROM "pg_temp"."tpl it's_hist" AS hs
JOIN "pg_temp"."tpl it's_stats" AS g
  ON g.gid = hs.gid AND g.s = hs.s
WHERE
  NOT hs.unknown AND g.n_values >= (
    CAST(%(min_values)s AS BIGINT)
  )
GROUP BY
  hs.gid,
  hs.s;
ANALYZE "pg_temp"."wk counts's"
