DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: l+-diversity verdict per group: every value s has G(s) <= theta_s·|G|, theta = p/q exactly (default p_default/q_default) */
/* params: p_default, q_default */
/* returns: creates target(gid, size, ok, severity); severity = max G(s)·q / (p·|G|) */
/* ref: SPEC §5.1 (per-value thresholds; unknown SA rows stay in the denominator) */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
WITH c AS (
  SELECT
    hs.gid,
    hs.s,
    hs.v,
    CAST(hs.n AS DECIMAL) AS n,
    CAST(g.size AS DECIMAL) AS size,
    COALESCE(th.p, (
      CAST(%(p_default)s AS BIGINT)
    )) AS p,
    COALESCE(th.q, (
      CAST(%(q_default)s AS BIGINT)
    )) AS q
  FROM "pg_temp"."tpl it's_hist" AS hs
  JOIN "pg_temp"."tpl it's_stats" AS g
    ON g.gid = hs.gid AND g.s = hs.s
  LEFT JOIN "pg_temp"."tpl it's_values" AS th
    ON th.s = hs.s
    AND (
      th.v IS NULL
    ) = (
      hs.v IS NULL
    )
    AND COALESCE(CAST(th.v AS TEXT), '') = COALESCE(CAST(hs.v AS TEXT), '')
  WHERE
    NOT hs.unknown
)
SELECT
  gid,
  CAST(MAX(size) AS BIGINT) AS size,
  BOOL_AND(n * q <= p * size) AS ok,
  MAX(
    CASE
      WHEN p = 0
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(n * q AS DOUBLE PRECISION) / CAST(p * size AS DOUBLE PRECISION)
    END
  ) AS severity
FROM c
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
