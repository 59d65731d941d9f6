/* purpose: partition/recursive_profile.sql over the descending counts of partition/stats_counts.sql (the groups with at least 2 values) computed from the source inside the same statement, never stored */
/* params: max_l, max_ls, parts, part */
/* returns: as partition/recursive_profile.sql */
/* ref: SPEC §0.2; issue 57 item 1, round 4: the statistics of a check on a small DuckDB source are not stored (partition/source_shapes.sql), so a check whose distinct l is 2 or more reads the counts its profile needs here, in one statement, where a stored table's counts were a second statement. counts names the CTE */
WITH "counts" AS (
  SELECT
    gid,
    s,
    ARRAY_REVERSE_SORT(counts) AS counts,
    ones
  FROM (
    SELECT
      gid,
      s,
      size,
      n_values,
      h,
      CAST(known AS BIGINT) AS known,
      CASE WHEN n_values = 0 THEN NULL ELSE GREATEST(0.0, LN(known) - n_ln_n / known) END AS entropy,
      collided,
      counts,
      ones
    FROM (
      SELECT
        gid,
        s,
        CAST(SUM(CAST(n AS DOUBLE)) AS BIGINT) AS size,
        COUNT(*) FILTER(WHERE
          NOT unknown) AS n_values,
        CAST(COALESCE(MAX(n) FILTER(WHERE
          NOT unknown), 0) AS BIGINT) AS h,
        COALESCE(SUM(CAST(n AS DOUBLE)) FILTER(WHERE
          NOT unknown), 0) AS known,
        SUM(n * LN(n)) FILTER(WHERE
          NOT unknown) AS n_ln_n,
        MIN(gid2) <> MAX(gid2) AS collided,
        ARRAY_AGG(n) FILTER(WHERE
          NOT unknown AND n > 1) AS counts,
        COUNT(*) FILTER(WHERE
          NOT unknown AND n = 1) AS ones
      FROM (
        SELECT
          CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
          CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
          1 AS s,
          CAST("ünï" AS TEXT) AS v,
          "ünï" IS NULL AS unknown,
          COUNT(*) AS n
        FROM "main"."select"
        WHERE
          CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
        GROUP BY
          1,
          3,
          2,
          4,
          5 /* gid and s first: the statistics over these rows group by them */
        UNION ALL
        SELECT
          CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
          CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
          2 AS s,
          CAST("order" AS TEXT) AS v,
          "order" IS NULL AS unknown,
          COUNT(*) AS n
        FROM "main"."select"
        WHERE
          CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
        GROUP BY
          1,
          3,
          2,
          4,
          5 /* gid and s first: the statistics over these rows group by them */
      ) AS hs
      GROUP BY
        gid,
        s
    ) AS g
  ) AS g
  WHERE
    n_values >= 2
), profile_groups /* purpose: the strongest recursive (c,l) per SA s and l: for each l in 2..$max_ls[s] (that SA's distinct l; $max_l is their maximum) the groups maximizing r1 / (r_l + ... + r_q) */ /* params: max_l, max_ls */ /* returns: s, l, candidates (list of [r1, tail] within 1e-9 of the maximum ratio; exact choice in Python) */ /* ref: SPEC §0.2 (recursive (c,l): r1 < c·(r_l + … + r_q)); holds for every c > max ratio; max_l ≤ every group's distinct count. */ /*      counts: descending, with the group's `ones` values counted once after them (none in partition/group_counts.sql's */ /*      lists, left out of partition/stats_counts.sql's): the tail from l is the listed counts' from l plus the ones, less */ /*      those among the first l - 1. */ /*      Linear in the counts (issue 57, "no pathologies"): a list of more than 32 counts is unnested once, its tails */ /*      running sums in ascending order (the sum of the m - l + 1 smallest is the tail from position l; a frame ending at */ /*      the current row, which every engine sums in one pass); a shorter one is summed per l as a slice (to l - 1 at */ /*      least: past the list an empty slice, where Spark refuses a negative length), cheaper than a sort for a few */ /*      values. Only short lists go through the cross join with l, which copies a list per row. profile_groups is */ /*      MATERIALIZED: PostgreSQL would read each list's length and first count per (group, l), not once per group */ AS MATERIALIZED (
  SELECT
    gid,
    s,
    LIST_EXTRACT($max_ls, s) AS top,
    COALESCE(counts[1], 1) AS r1,
    COALESCE(LENGTH(counts), 0) AS m,
    ones,
    CASE WHEN LENGTH(counts) <= 32 THEN counts END AS short_counts,
    CASE WHEN LENGTH(counts) > 32 THEN counts END AS long_counts
  FROM "counts"
  WHERE
    LIST_EXTRACT($max_ls, s) >= 2
), long_tails AS (
  SELECT
    s,
    top,
    r1,
    ones,
    m + 1 - ROW_NUMBER() OVER (PARTITION BY gid, s ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS l,
    SUM(n) OVER (PARTITION BY gid, s ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS listed_tail
  FROM (
    SELECT
      gid,
      s,
      top,
      r1,
      m,
      ones,
      UNNEST(long_counts) AS n
    FROM profile_groups
    WHERE
      m > 32
  ) AS u
), t AS (
  SELECT
    g.s,
    CAST(ls.l AS INT) AS l,
    g.r1,
    COALESCE(
      LIST_SUM(
        LIST_SLICE(g.short_counts, CAST(ls.l AS INT), GREATEST(g.m, CAST(ls.l AS INT) - 1))
      ),
      0
    ) + g.ones - GREATEST(0, CAST(ls.l AS INT) - 1 - g.m) AS tail
  FROM profile_groups AS g
  CROSS JOIN RANGE(2, $max_l + 1) AS ls(l)
  WHERE
    ls.l <= g.top AND (
      g.m <= 32 OR ls.l > g.m
    )
  UNION ALL
  SELECT
    s,
    CAST(l AS INT) AS l,
    r1,
    listed_tail + ones AS tail
  FROM long_tails
  WHERE
    l >= 2 AND l <= top
), r AS (
  SELECT
    *,
    r1 / tail AS ratio,
    MAX(r1 / tail) OVER (PARTITION BY s, l) AS max_ratio
  FROM t
)
SELECT
  s,
  l,
  ARRAY_AGG(DISTINCT [r1, tail]) AS candidates
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
