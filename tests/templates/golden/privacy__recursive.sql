/* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
/* params: ls, c_num, c_den */
/* returns: creates target(gid, size, ok, severity); severity = r1 / tail (tail 0 = +inf) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); the tails are summed for the groups with a counts row only (the others have fewer values than the smallest l, and PostgreSQL runs the list sum as a subquery per row); one_sa = a single SA, whose groups need no second aggregation */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
WITH tails AS (
  SELECT
    gid,
    s,
    CAST(COALESCE(LIST_SUM(LIST_SLICE(counts, LIST_EXTRACT($ls, s), LENGTH(counts))), 0) AS INT128) AS tail
  FROM "temp"."main"."tpl it's_counts_2"
), t AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    CASE
      WHEN x.gid IS NULL
      THEN FALSE
      ELSE g.n_values >= LIST_EXTRACT($ls, g.s)
      AND CAST(g.h AS INT128) * $c_den < $c_num * x.tail
    END AS ok,
    CASE
      WHEN COALESCE(x.tail, 0) = 0
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(g.h AS DOUBLE) / CAST(x.tail AS DOUBLE)
    END AS severity
  FROM "temp"."main"."tpl it's_stats" AS g
  LEFT JOIN tails AS x
    ON x.gid = g.gid AND x.s = g.s
)
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(ok AS BOOLEAN)) AS ok,
  MAX(severity) AS severity
FROM t
GROUP BY
  gid
