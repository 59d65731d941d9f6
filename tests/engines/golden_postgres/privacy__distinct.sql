DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: distinct l-diversity verdict per group: at least l_s distinct values of every SA s */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l - distinct (worst SA) */
/* ref: SPEC §0.2 (distinct l-diversity); §4.1 (one l per SA) */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(n_values >= (
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s]) AS ok,
  MAX(CAST((
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s] - n_values AS DOUBLE PRECISION)) AS severity
FROM "pg_temp"."tpl it's_stats"
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
