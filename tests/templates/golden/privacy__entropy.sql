/* purpose: entropy l-diversity verdict per group: -sum p ln p >= ln l (tolerance 1e-12) */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = ln l - entropy */
/* ref: SPEC §0.2 (entropy l-diversity, natural log, 1e-12 tolerance) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(COALESCE(entropy >= LN(LIST_EXTRACT($ls, s)) - 1e-12, FALSE) AS BOOLEAN)) AS ok,
  MAX(LN(LIST_EXTRACT($ls, s)) - COALESCE(entropy, 0.0)) AS severity
FROM "temp"."main"."tpl it's_stats"
GROUP BY
  gid
