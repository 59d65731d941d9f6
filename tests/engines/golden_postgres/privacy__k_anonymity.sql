DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: k-anonymity verdict per group: |G| >= k */
/* params: k */
/* returns: creates target(gid, size, ok, severity); severity = k - |G| (larger is worse) */
/* ref: SPEC §0.2 context; Sweeney's k-anonymity */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
SELECT
  gid,
  size,
  size >= (
    CAST(%(k)s AS BIGINT)
  ) AS ok,
  CAST((
    CAST(%(k)s AS BIGINT)
  ) - size AS DOUBLE PRECISION) AS severity
FROM "pg_temp"."tpl it's_stats"
WHERE
  s = 1;
ANALYZE "pg_temp"."tpl it's_verdict"
