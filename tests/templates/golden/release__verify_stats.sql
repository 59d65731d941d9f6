/* purpose: the group statistics of a written release's partition (by group id, or by QI label vector with hashed ids) straight from the release aggregate: partition/group_stats.sql over release/verify_hist.sql's rows, the histogram an inner aggregation never stored; with each group's known-value counts as partition/source_stats.sql keeps them */
/* params: none */
/* hints: many-groups */
/* returns: creates target(gid, s, size, n_values, h, known, entropy, collided, counts, ones) as partition/source_stats.sql; with listed false, without counts and ones (partition/group_stats.sql's columns) */
/* ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels); for an engine that takes statistics from */
/*      the source (Database.stats_from_source): TP+ at 1M on PostgreSQL, the histograms of both partitions and their */
/*      statistics took four statements and two stored tables. Not for exact ranks of label vectors (after a hash collision: */
/*      release/verify_hist.sql, then partition/group_stats.sql). listed false: the statistics by group id of an aggregate */
/*      whose rows are the histogram's (one_row_each), on an engine that stores the histogram only when a model reads it */
/*      (pipeline/verify.py WrittenPartition: the copy of the aggregate it would be is not made for the statistics alone) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk stats's" AS
SELECT
  gid,
  s,
  size,
  n_values,
  h,
  CAST(known AS BIGINT) AS known,
  CASE WHEN n_values = 0 THEN NULL ELSE GREATEST(0.0, LN(known) - n_ln_n / known) END AS entropy,
  collided,
  counts,
  ones
FROM (
  SELECT
    gid,
    1 AS s,
    CAST(SUM(CAST(n AS DOUBLE)) AS BIGINT) AS size,
    COUNT(*) FILTER(WHERE
      NOT unknown) AS n_values,
    CAST(COALESCE(MAX(n) FILTER(WHERE
      NOT unknown), 0) AS BIGINT) AS h,
    COALESCE(SUM(CAST(n AS DOUBLE)) FILTER(WHERE
      NOT unknown), 0) AS known,
    SUM(n * LN(n)) FILTER(WHERE
      NOT unknown) AS n_ln_n,
    MIN(gid2) <> MAX(gid2) AS collided,
    ARRAY_AGG(n) FILTER(WHERE
      NOT unknown AND n > 1) AS counts,
    COUNT(*) FILTER(WHERE
      NOT unknown AND n = 1) AS ones
  FROM (
    SELECT
      CAST(HASH("q1", "q2", "q3", "q4") >> 1 AS BIGINT) AS gid,
      CAST(HASH(
        'ldiv:' || CAST("q1" AS TEXT),
        'ldiv:' || CAST("q2" AS TEXT),
        'ldiv:' || CAST("q3" AS TEXT),
        'ldiv:' || CAST("q4" AS TEXT)
      ) >> 1 AS BIGINT) AS gid2,
      1 AS s,
      CAST("s1" AS TEXT) AS v,
      "s1" IS NULL AS unknown,
      CAST(SUM(n) AS BIGINT) AS n
    FROM "temp"."main"."wk aggregate's"
    GROUP BY ALL
  ) AS hs
  GROUP BY
    gid
) AS g
