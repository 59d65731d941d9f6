/* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
/* params: ls, c_num, c_den */
/* returns: creates target(gid, ok, severity); severity = r1 / tail (tail 0 = +inf) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
WITH t AS (
  SELECT
    gid,
    s,
    n_values,
    LIST_EXTRACT($ls, s) AS l,
    CAST(COALESCE(counts[1], 0) AS INT128) AS r1,
    CAST(COALESCE(LIST_SUM(LIST_SLICE(counts, LIST_EXTRACT($ls, s), LENGTH(counts))), 0) AS INT128) AS tail
  FROM "temp"."main"."tpl it's_stats"
)
SELECT
  gid,
  BOOL_AND(CAST(n_values >= l AND r1 * $c_den < $c_num * tail AS BOOLEAN)) AS ok,
  MAX(
    CASE
      WHEN tail = 0
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(r1 AS DOUBLE) / CAST(tail AS DOUBLE)
    END
  ) AS severity
FROM t
GROUP BY
  gid
