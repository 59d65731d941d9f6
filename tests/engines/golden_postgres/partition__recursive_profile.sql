/* purpose: the strongest recursive (c,l) per SA s and l: for each l in 2..$max_ls[s] (that SA's distinct l; $max_l is their maximum) the groups maximizing r1 / (r_l + ... + r_q) */
/* params: max_l, max_ls */
/* returns: s, l, candidates (list of [r1, tail] within 1e-9 of the maximum ratio; exact choice in Python) */
/* ref: SPEC §0.2 (recursive (c,l): r1 < c·(r_l + … + r_q)); holds for every c > max ratio; max_l ≤ every group's distinct count. */
/*      counts: descending, with the group's `ones` values counted once after them (none in partition/group_counts.sql's */
/*      lists, left out of partition/stats_counts.sql's): the tail from l is the listed counts' from l plus the ones, less */
/*      those among the first l - 1 */
WITH t AS (
  SELECT
    g.s,
    CAST(ls.l AS INT) AS l,
    COALESCE(g.counts[1], 1) AS r1,
    COALESCE(
      (
        SELECT
          SUM(v)
        FROM UNNEST((
          g.counts
        )[(
          CAST(ls.l AS INT)
        ):(
          CARDINALITY(g.counts)
        )]) AS u(v)
      ),
      0
    ) + g.ones - GREATEST(0, CAST(ls.l AS INT) - 1 - COALESCE(CARDINALITY(g.counts), 0)) AS tail
  FROM "pg_temp"."tpl it's_counts_2" AS g
  CROSS JOIN GENERATE_SERIES(2, (
    CAST(%(max_l)s AS BIGINT)
  ) + 1 - 1) AS ls(l)
  WHERE
    ls.l <= (
      (
        CAST(%(max_ls)s AS BIGINT[])
      )
    )[g.s]
), r AS (
  SELECT
    *,
    CAST(r1 AS DOUBLE PRECISION) / tail AS ratio,
    MAX(CAST(r1 AS DOUBLE PRECISION) / tail) OVER (PARTITION BY s, l) AS max_ratio
  FROM t
)
SELECT
  s,
  l,
  ARRAY_AGG(DISTINCT ARRAY[r1, tail]) AS candidates
FROM r
WHERE
  ratio >= max_ratio * (
    1 - 1e-9
  )
GROUP BY
  s,
  l
ORDER BY
  s,
  l
