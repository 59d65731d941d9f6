/* purpose: the group statistics of partition/group_stats.sql straight from the source, the histogram an inner aggregation of the same statement that is never stored; with each group's known-value counts: those above 1 as an unordered list, and how many values are counted once */
/* params: parts, part */
/* hints: many-groups, read-whole */
/* returns: creates target(gid, s, size, n_values, h, known, entropy, collided, counts, ones); as partition/group_stats.sql over partition/histogram.sql with hashed ids, counts = the group's counts above 1 of its known values (no order; NULL when there is none), ones = its known values counted once */
/* ref: DESIGN §5 (compress first; fewer passes). For an evaluation that needs only the group statistics (ldiv check): */
/*      on PostgreSQL a million-row part's histogram, its statistics and the recursive model's counts took */
/*      three statements and two stored tables. An engine opts in (Database.stats_from_source); the */
/*      evaluator stores the histogram later if a model asks for it (ldiv_db/core/evaluator.py). read-whole: the check's */
/*      statements after it aggregate the table or filter it */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk source stats's" AS
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
    s,
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
      CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
      CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
      1 AS s,
      CAST("ünï" AS TEXT) AS v,
      FALSE AS unknown,
      COUNT(*) AS n
    FROM "main"."select"
    WHERE
      CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
    GROUP BY
      1,
      3,
      2,
      4,
      5 /* gid and s first: the statistics over these rows group by them */
    UNION ALL
    SELECT
      CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
      CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
      2 AS s,
      CAST("order" AS TEXT) AS v,
      FALSE AS unknown,
      COUNT(*) AS n
    FROM "main"."select"
    WHERE
      CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
    GROUP BY
      1,
      3,
      2,
      4,
      5 /* gid and s first: the statistics over these rows group by them */
  ) AS hs
  GROUP BY
    gid,
    s
) AS g
