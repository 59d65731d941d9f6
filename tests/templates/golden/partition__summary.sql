/* purpose: the table-level statistics of a partition, per SA: groups, rows, k, min distinct, min entropy, and the candidates for the exact frequency l */
/* params: none */
/* returns: s, groups, rows, k, distinct_l, min_entropy, freq_candidates (list of [size, h] whose size/h is within 1e-9 of the minimum; exact choice in Python), collisions (groups whose hashed id two key tuples share: partition/gid_check.sql's count, read here where the statistics come without that check), class_sizes (list of [size, groups] of the SA's groups, in no order: s = 1's is partition/class_sizes.sql's histogram, every group having a row for the first SA) */
/* ref: SPEC §0.2; issue 2 item 7 (frequency l = min |G|/h(G), entropy l = exp(min entropy)); one pass over the groups */
WITH shapes AS (
  /* groups of equal (size, h) together: the statistics below need no more, and there are few shapes */
  SELECT
    s,
    size,
    h,
    COUNT(*) AS groups,
    MIN(n_values) AS distinct_l,
    MIN(entropy) AS min_entropy,
    COUNT(*) FILTER(WHERE
      collided) AS collided
  FROM "temp"."main"."tpl it's_stats"
  GROUP BY
    s,
    size,
    h
), r AS (
  SELECT
    *,
    CASE WHEN h > 0 THEN size / h END AS ratio
  FROM shapes
), m AS (
  SELECT
    s,
    MIN(ratio) AS min_ratio
  FROM r
  GROUP BY
    s
), sizes AS (
  SELECT
    s,
    ARRAY_AGG([size, groups]) AS class_sizes
  FROM (
    SELECT
      s,
      size,
      CAST(SUM(groups) AS BIGINT) AS groups
    FROM shapes
    GROUP BY
      s,
      size
  ) AS z
  GROUP BY
    s
), per_sa AS (
  SELECT
    r.s,
    CAST(SUM(groups) AS BIGINT) AS groups,
    CAST(SUM(groups * size) AS BIGINT) AS rows,
    MIN(size) AS k,
    MIN(distinct_l) AS distinct_l,
    MIN(min_entropy) AS min_entropy,
    ARRAY_AGG(DISTINCT [size, h]) FILTER(WHERE
      ratio <= m.min_ratio * (
        1 + 1e-9
      )) AS freq_candidates,
    CAST(SUM(collided) AS BIGINT) AS collisions
  FROM r
  JOIN m
    ON r.s = m.s
  GROUP BY
    r.s
)
SELECT
  per_sa.*,
  sizes.class_sizes
FROM per_sa
JOIN sizes
  ON sizes.s = per_sa.s
ORDER BY
  per_sa.s
