DROP TABLE IF EXISTS "pg_temp"."wk stats counts's";
/* purpose: the descending SA counts of every group with at least $min_values distinct values, from the statistics partition/source_stats.sql keeps (partition/group_counts.sql's table, without the histogram) */
/* params: min_values */
/* returns: creates target(gid, s, counts, ones): counts = the group's counts above 1, descending (NULL when there is none), ones = its values counted once, which follow them in the descending order */
/* ref: SPEC §0.2 (recursive (c,l)-diversity); as partition/group_counts.sql */
CREATE TABLE "pg_temp"."wk stats counts's" AS
SELECT
  gid,
  s,
  (
    SELECT
      ARRAY_AGG(v ORDER BY v DESC)
    FROM UNNEST(counts) AS u(v)
  ) AS counts,
  ones
FROM "pg_temp"."wk stats from source's"
WHERE
  n_values >= (
    CAST(%(min_values)s AS BIGINT)
  );
ANALYZE "pg_temp"."wk stats counts's"
