/* purpose: k-anonymity verdict per group: |G| >= k */
/* params: k */
/* returns: creates target(gid, size, ok, severity); severity = k - |G| (larger is worse) */
/* ref: SPEC §0.2 context; Sweeney's k-anonymity */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
SELECT
  gid,
  size,
  size >= $k AS ok,
  CAST($k - size AS DOUBLE) AS severity
FROM "temp"."main"."tpl it's_stats"
WHERE
  s = 1
