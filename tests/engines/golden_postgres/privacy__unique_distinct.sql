DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: Unique Distinct l-diversity verdict per group: no SA value repeats and at least l distinct values */
/* params: ls */
/* returns: creates target(gid, size, ok, severity, exact_l); exact_l = the group has exactly l distinct values */
/* ref: SPEC §2.1 (Unique Distinct l-diversity; incorporated classes hold l+1 distinct values) */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(size = n_values AND n_values >= (
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s]) AS ok,
  MAX(
    CAST((
      size - n_values
    ) + GREATEST((
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[s] - n_values, 0) AS DOUBLE PRECISION)
  ) AS severity,
  BOOL_AND(n_values = (
    (
      CAST(%(ls)s AS BIGINT[])
    )
  )[s]) AS exact_l
FROM "pg_temp"."tpl it's_stats"
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
