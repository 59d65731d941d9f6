DROP TABLE IF EXISTS "pg_temp"."wk stats's";
/* purpose: per group and SA: size, distinct values, pillar height, entropy, and a collision flag for the hashed group ids */
/* params: none */
/* returns: creates target(gid, s, size, n_values, h, known, entropy, collided); rows with an unknown SA count in size only; collided = two key tuples share this gid */
/* ref: SPEC §0.1 (h), §0.2 (entropy with natural log); one aggregation over the compressed histogram */
CREATE TABLE "pg_temp"."wk stats's" AS
SELECT
  gid,
  s,
  CAST(SUM(n) AS BIGINT) AS size,
  COUNT(*) FILTER(WHERE
    NOT unknown) AS n_values,
  CAST(COALESCE(MAX(n) FILTER(WHERE
    NOT unknown), 0) AS BIGINT) AS h,
  CAST(COALESCE(SUM(n) FILTER(WHERE
    NOT unknown), 0) AS BIGINT) AS known,
  CASE
    WHEN COUNT(*) FILTER(WHERE
      NOT unknown) = 0
    THEN NULL
    ELSE GREATEST(
      0.0,
      LN(SUM(n) FILTER(WHERE
        NOT unknown)) - CAST(SUM(n * LN(n)) FILTER(WHERE
        NOT unknown) AS DOUBLE PRECISION) / SUM(n) FILTER(WHERE
        NOT unknown)
    )
  END AS entropy,
  MIN(gid2) <> MAX(gid2) AS collided
FROM "pg_temp"."tpl it's_hist"
GROUP BY
  gid,
  s;
ANALYZE "pg_temp"."wk stats's"
