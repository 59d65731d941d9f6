/* purpose: l+-diversity verdict per group: every value s has G(s) <= theta_s·|G|, theta = p/q exactly (default p_default/q_default) */
/* params: p_default, q_default */
/* returns: creates target(gid, size, ok, severity); severity = max G(s)·q / (p·|G|) */
/* ref: SPEC §5.1 (per-value thresholds; unknown SA rows stay in the denominator) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_verdict" AS
WITH c AS (
  SELECT
    hs.gid,
    hs.s,
    hs.v,
    CAST(hs.n AS INT128) AS n,
    CAST(g.size AS INT128) AS size,
    COALESCE(th.p, $p_default) AS p,
    COALESCE(th.q, $q_default) AS q
  FROM "temp"."main"."tpl it's_hist" AS hs
  JOIN "temp"."main"."tpl it's_stats" AS g
    ON g.gid = hs.gid AND g.s = hs.s
  LEFT JOIN "temp"."main"."tpl it's_values" AS th
    ON th.s = hs.s AND th.v IS NOT DISTINCT FROM hs.v
  WHERE
    NOT hs.unknown
)
SELECT
  gid,
  CAST(MAX(size) AS BIGINT) AS size,
  BOOL_AND(CAST(n * q <= p * size AS BOOLEAN)) AS ok,
  MAX(
    CASE
      WHEN p = 0
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(n * q AS DOUBLE) / CAST(p * size AS DOUBLE)
    END
  ) AS severity
FROM c
GROUP BY
  gid
