/* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
/* params: ls, c_num, c_den */
/* returns: creates target(gid, size, ok, severity); severity = r1 / tail (tail 0 = +inf) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); a group without a counts row (fewer values than the smallest l) skips the list sum, which PostgreSQL runs as a subquery per row */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
WITH t AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.n_values,
    LIST_EXTRACT($ls, g.s) AS l,
    CAST(g.h AS INT128) AS r1,
    CAST(CASE
      WHEN c.gid IS NULL
      THEN 0
      ELSE COALESCE(LIST_SUM(LIST_SLICE(c.counts, LIST_EXTRACT($ls, g.s), LENGTH(c.counts))), 0)
    END AS INT128) AS tail
  FROM "temp"."main"."tpl it's_stats" AS g
  LEFT JOIN "temp"."main"."tpl it's_counts_2" AS c
    ON c.gid = g.gid AND c.s = g.s
)
SELECT
  gid,
  MAX(size) AS size,
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
