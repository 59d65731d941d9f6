/* purpose: #MinRm per group and value: the fewest rows of value v to delete so that v is no longer violated, ceil((q·n_v - p·n)/(q - p)) exactly */
/* params: p_default, q_default */
/* returns: gid, s, v, n, size, min_rm (violated values only) */
/* ref: SPEC §5.7 Lemma 3, §0.3 (T-FRAC: theta 0.9, n = n_v = 10 gives 10) */
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
  s,
  v,
  n,
  size,
  CAST(DIV((
    q * n - p * size + (
      q - p
    ) - 1
  ), (
    q - p
  )) AS BIGINT) AS min_rm /* ceiling division; q > p when violated */
FROM c
WHERE
  n * q > p * size
ORDER BY
  gid,
  s,
  v
