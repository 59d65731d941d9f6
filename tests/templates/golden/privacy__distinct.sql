/* purpose: distinct l-diversity verdict per group: at least l_s distinct values of every SA s */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l - distinct (worst SA) */
/* ref: SPEC §0.2 (distinct l-diversity); §4.1 (one l per SA) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(n_values >= LIST_EXTRACT($ls, s) AS BOOLEAN)) AS ok,
  MAX(CAST(LIST_EXTRACT($ls, s) - n_values AS DOUBLE)) AS severity
FROM "temp"."main"."tpl it's_stats"
GROUP BY
  gid
