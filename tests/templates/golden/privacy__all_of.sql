/* purpose: the verdict of several models at once (e.g. distinct l-diversity and t-closeness): a group passes when it passes every one */
/* params: models */
/* returns: creates target(gid, size, ok, severity); a group missing from a model's verdict fails; severity = the largest severity among the models the group fails (0 when it passes all) */
/* ref: docs/decisions/0014-distribution-models.md (a release may require an l model and a distribution model together); every verdict table holds one row per group of the same statistics */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_all of" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(ok AS BOOLEAN)) AND COUNT(*) = $models AS ok,
  COALESCE(MAX(severity) FILTER(WHERE
    NOT ok), 0.0) AS severity
FROM (
  SELECT
    gid,
    CAST(size AS BIGINT) AS size,
    ok,
    CAST(severity AS DOUBLE) AS severity
  FROM "temp"."main"."tpl it's_dist verdict"
  UNION ALL
  SELECT
    gid,
    CAST(size AS BIGINT) AS size,
    ok,
    CAST(severity AS DOUBLE) AS severity
  FROM "temp"."main"."tpl it's_dist verdict"
) AS v
GROUP BY
  gid
