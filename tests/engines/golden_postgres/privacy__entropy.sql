DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: entropy l-diversity verdict per group: -sum p ln p >= ln l (tolerance 1e-12) */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = ln l - entropy */
/* ref: SPEC §0.2 (entropy l-diversity, natural log, 1e-12 tolerance) */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(
    COALESCE(entropy >= LN((
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[s]) - 1e-12, FALSE)
  ) AS ok,
  MAX(LN((
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s]) - COALESCE(entropy, 0.0)) AS severity
FROM "pg_temp"."tpl it's_stats"
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
