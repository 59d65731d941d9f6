DROP TABLE IF EXISTS "pg_temp"."tpl it's_all of";
/* purpose: the verdict of several models at once (e.g. distinct l-diversity and t-closeness): a group passes when it passes every one */
/* params: none */
/* returns: creates target(gid, size, ok, severity); a group missing from a model's verdict fails it; severity = the largest severity among the models the group fails (0 when it passes all) */
/* ref: docs/decisions/0014-distribution-models.md (a release may require an l model and a distribution model together); the verdicts are joined on gid (each holds one row per group), not unioned and regrouped: one pass fewer over the groups */
CREATE TABLE "pg_temp"."tpl it's_all of" AS
SELECT
  COALESCE(v0.gid, v1.gid) AS gid,
  CAST(COALESCE(v0.size, v1.size) AS BIGINT) AS size,
  COALESCE(v0.ok, FALSE) AND COALESCE(v1.ok, FALSE) AS ok,
  GREATEST(
    CASE
      WHEN COALESCE(v0.ok, FALSE)
      THEN 0.0
      ELSE COALESCE(CAST(v0.severity AS DOUBLE PRECISION), CAST('infinity' AS DOUBLE PRECISION))
    END,
    CASE
      WHEN COALESCE(v1.ok, FALSE)
      THEN 0.0
      ELSE COALESCE(CAST(v1.severity AS DOUBLE PRECISION), CAST('infinity' AS DOUBLE PRECISION))
    END
  ) AS severity
FROM "pg_temp"."tpl it's_dist verdict" AS v0
FULL OUTER JOIN "pg_temp"."tpl it's_dist verdict" AS v1
  ON v1.gid = COALESCE(v0.gid);
ANALYZE "pg_temp"."tpl it's_all of"
