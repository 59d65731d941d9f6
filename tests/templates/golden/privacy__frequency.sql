/* purpose: l-eligibility (frequency l-diversity) verdict per group: l·h(G) <= |G| */
/* params: ls */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l·h / |G| */
/* ref: SPEC §0.2 (l-eligible, integer comparison); TP, Anatomy */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(LIST_EXTRACT($ls, s) * h <= size AS BOOLEAN)) AS ok,
  MAX(CAST(LIST_EXTRACT($ls, s) * h AS DOUBLE) / size) AS severity
FROM "temp"."main"."tpl it's_stats"
GROUP BY
  gid
