DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: l-eligibility (frequency l-diversity) verdict per group: l·h(G) <= |G| */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l·h / |G| */
/* ref: SPEC §0.2 (l-eligible, integer comparison); TP, Anatomy */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND((
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s] * h <= size) AS ok,
  MAX(CAST((
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s] * h AS DOUBLE PRECISION) / size) AS severity
FROM "pg_temp"."tpl it's_stats"
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
