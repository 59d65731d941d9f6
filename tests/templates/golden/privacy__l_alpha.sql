/* purpose: (l,alpha)-diversity verdict per group: >= l distinct values, group weight >= alpha (exact), plus the entropy or recursive test over categories (or values) */
/* params: ls, a_num, a_den, w_den, c_num, c_den */
/* returns: creates target(gid, size, ok, severity, weight_num); weight = weight_num / w_den; severity = alpha - weight (as a double) or the failing test */
/* ref: SPEC §3.2 (group weight over rows; entropy and recursive over category counts) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
WITH cells AS (
  SELECT
    hs.gid,
    hs.s,
    hs.v,
    CAST(hs.n AS INT128) AS n,
    cat.category,
    cat.p AS w_num
  FROM "temp"."main"."tpl it's_hist" AS hs
  JOIN "temp"."main"."tpl it's_values" AS cat
    ON cat.s = hs.s AND cat.v IS NOT DISTINCT FROM hs.v
  WHERE
    NOT hs.unknown
), weights AS (
  SELECT
    gid,
    s,
    SUM(n * w_num) AS weight_num
  FROM cells
  GROUP BY
    gid,
    s
), units AS (
  SELECT
    gid,
    s,
    category AS u,
    SUM(n) AS n
  FROM cells
  GROUP BY ALL
), unit_stats AS (
  SELECT
    gid,
    s,
    COUNT(*) AS q,
    ARRAY_AGG(n ORDER BY n DESC) AS counts
  FROM units
  GROUP BY
    gid,
    s
), judged AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    w.weight_num,
    g.n_values >= LIST_EXTRACT($ls, g.s) AS distinct_ok,
    w.weight_num * $a_den >= $a_num * $w_den AS weight_ok,
    u.q >= LIST_EXTRACT($ls, g.s)
    AND CAST(u.counts[1] AS INT128) * $c_den < $c_num * CAST(COALESCE(LIST_SUM(LIST_SLICE(u.counts, LIST_EXTRACT($ls, g.s), LENGTH(u.counts))), 0) AS INT128) AS extra_ok
  FROM "temp"."main"."tpl it's_stats" AS g
  JOIN weights AS w
    ON w.gid = g.gid AND w.s = g.s
  JOIN unit_stats AS u
    ON u.gid = g.gid AND u.s = g.s
)
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(CAST(distinct_ok AND weight_ok AND extra_ok AS BOOLEAN)) AS ok,
  MAX(
    CASE
      WHEN distinct_ok AND weight_ok AND extra_ok
      THEN 0.0
      WHEN NOT distinct_ok
      THEN 3.0
      WHEN NOT weight_ok
      THEN 2.0 + (
        CAST($a_num AS DOUBLE) / $a_den - CAST(weight_num AS DOUBLE) / $w_den
      )
      ELSE 1.0
    END
  ) AS severity,
  MIN(weight_num) AS weight_num
FROM judged
GROUP BY
  gid
