/* purpose: Unique Distinct l-diversity verdict per group: no SA value repeats and at least l distinct values */
/* params: ls */
/* returns: creates target(gid, size, ok, severity, exact_l); exact_l = the group has exactly l distinct values */
/* ref: SPEC §2.1 (Unique Distinct l-diversity; incorporated classes hold l+1 distinct values) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(size = n_values AND n_values >= LIST_EXTRACT($ls, s) AS BOOLEAN)) AS ok,
  MAX(
    CAST((
      size - n_values
    ) + GREATEST(LIST_EXTRACT($ls, s) - n_values, 0) AS DOUBLE)
  ) AS severity,
  BOOL_AND(CAST(n_values = LIST_EXTRACT($ls, s) AS BOOLEAN)) AS exact_l
FROM "temp"."main"."tpl it's_stats"
GROUP BY
  gid
