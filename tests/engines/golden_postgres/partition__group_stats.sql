DROP TABLE IF EXISTS "pg_temp"."wk stats's";
/* purpose: per group and SA: size, distinct values, pillar height, entropy, and a collision flag for the hashed group ids */
/* params: none */
/* hints: many-groups */
/* returns: creates target(gid, s, size, n_values, h, known, entropy, collided); rows with an unknown SA count in size only; collided = two key tuples share this gid */
/* ref: SPEC §0.1 (h), §0.2 (entropy with natural log); one aggregation over the compressed histogram. Counts are summed as */
/*      DOUBLE, exact below 2^53 rows in any order: PostgreSQL sums BIGINT as NUMERIC, which took half of this statement there */
CREATE TABLE "pg_temp"."wk stats's" AS
SELECT
  gid,
  s,
  size,
  n_values,
  h,
  CAST(known AS BIGINT) AS known,
  CASE
    WHEN n_values = 0
    THEN NULL
    ELSE GREATEST(0.0, LN(known) - CAST(n_ln_n AS DOUBLE PRECISION) / known)
  END AS entropy,
  collided
FROM (
  SELECT
    gid,
    s,
    CAST(SUM(CAST(n AS DOUBLE PRECISION)) AS BIGINT) AS size,
    COUNT(*) FILTER(WHERE
      NOT unknown) AS n_values,
    CAST(COALESCE(MAX(n) FILTER(WHERE
      NOT unknown), 0) AS BIGINT) AS h,
    COALESCE(SUM(CAST(n AS DOUBLE PRECISION)) FILTER(WHERE
      NOT unknown), 0) AS known,
    SUM(n * LN(n)) FILTER(WHERE
      NOT unknown) AS n_ln_n,
    MIN(gid2) <> MAX(gid2) AS collided
  FROM "pg_temp"."tpl it's_hist"
  GROUP BY
    gid,
    s
) AS g;
ANALYZE "pg_temp"."wk stats's"
