DROP TABLE IF EXISTS "pg_temp"."wk stats counts's";
/* purpose: the descending SA counts of every group with at least $min_values distinct values, from the lists partition/source_stats.sql keeps (partition/group_counts.sql's table, without the histogram) */
/* params: min_values */
/* returns: creates target(gid, s, counts) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity); as partition/group_counts.sql */
CREATE TABLE "pg_temp"."wk stats counts's" AS
SELECT
  gid,
  s,
  ARRAY_AGG(n ORDER BY n DESC NULLS LAST) AS counts
FROM (
  SELECT
    gid,
    s,
    UNNEST(counts) AS n
  FROM "pg_temp"."wk stats from source's"
  WHERE
    n_values >= (
      CAST(%(min_values)s AS BIGINT)
    )
) AS c
GROUP BY
  gid,
  s;
ANALYZE "pg_temp"."wk stats counts's"
