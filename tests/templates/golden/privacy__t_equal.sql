/* purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS INT128) AS bt,
    CAST(COUNT(*) AS INT128) AS bm
  FROM "temp"."main"."tpl it's_baseline it's"
  GROUP BY
    s
), cells AS (
  SELECT
    hs.gid,
    hs.s,
    hs.unknown,
    CAST(hs.n AS INT128) AS n,
    CAST(CASE WHEN hs.unknown THEN 0 ELSE COALESCE(b.n, 0) END AS INT128) AS bn,
    b.r,
    CAST(SUM(CASE WHEN hs.unknown THEN 0 ELSE hs.n END) OVER (PARTITION BY hs.gid, hs.s) AS INT128) AS m,
    t.bt,
    t.bm
  FROM "temp"."main"."tpl it's_hist" AS hs
  JOIN tot AS t
    ON t.s = hs.s
  LEFT JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
), e AS (
  SELECT
    gid,
    s,
    SUM(n) AS size,
    MAX(m) AS m,
    MAX(bt) AS bt,
    COALESCE(SUM(ABS(n * bt - bn * m)) FILTER(WHERE
      NOT unknown), 0) AS gaps,
    SUM(bn) AS covered
  FROM cells
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    gid,
    s,
    size,
    m > 0 AND (
      gaps + m * (
        bt - covered
      )
    ) * $t_den <= $t_num * 2 * m * bt AS ok,
    CASE
      WHEN m = 0
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(gaps + m * (
        bt - covered
      ) AS DOUBLE) / CAST(2 * m * bt AS DOUBLE)
    END AS severity,
    gaps + m * (
      bt - covered
    ) AS num,
    2 * m * bt AS den
  FROM e
)
SELECT
  gid,
  CAST(MAX(size) AS BIGINT) AS size,
  BOOL_AND(CAST(ok AS BOOLEAN)) AS ok,
  MAX(severity) AS severity,
  ARG_MAX(num, severity) AS num,
  ARG_MAX(den, severity) AS den
FROM d
GROUP BY
  gid
