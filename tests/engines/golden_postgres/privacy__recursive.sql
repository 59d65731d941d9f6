DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
/* params: ls, c_num, c_den, min_values */
/* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = r1 / tail (tail 0 = +inf). counts: the groups' descending counts (partition/group_counts.sql), or with sorted_counts = false the statistics (partition/source_stats.sql: the counts above 1 unordered, and the number of ones), whose counts are sorted here for the groups with at least $min_values values; the ones come last in the descending order: the tail from position l is the listed counts' from l plus the ones, less those ones that are among the first l - 1 */
/* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); the tails are summed for the groups with a counts row only, those with at least $min_values values (the counts table's bound, the smallest l); the others fail with an infinite severity and are written without a join (PostgreSQL built its join's hash over every group); one_sa = a single SA, whose groups need no second aggregation. tails is MATERIALIZED: PostgreSQL inlined it and summed each */
/*      group's tail three times, once per use. With the */
/*      statistics' unordered lists the tails keep the group's statistics they need, and no join finds them again */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
WITH tails AS MATERIALIZED (
  SELECT
    gid,
    s,
    CAST(COALESCE(
      (
        SELECT
          SUM(v)
        FROM UNNEST((
          counts
        )[(
          (
            (
              CAST(%(ls)s AS BIGINT[])
            )
          )[s]
        ):(
          CARDINALITY(counts)
        )]) AS u(v)
      ),
      0
    ) AS DECIMAL) AS tail
  FROM "pg_temp"."tpl it's_counts_2"
), t AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    FALSE AS ok,
    CAST('infinity' AS DOUBLE PRECISION) AS severity
  FROM "pg_temp"."tpl it's_stats" AS g
  WHERE
    g.n_values < (
      CAST(%(min_values)s AS BIGINT)
    )
  UNION ALL
  SELECT
    g.gid,
    g.s,
    g.size,
    g.n_values >= (
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[g.s]
    AND CAST(g.h AS DECIMAL) * (
      CAST(%(c_den)s AS BIGINT)
    ) < (
      CAST(%(c_num)s AS BIGINT)
    ) * x.tail AS ok,
    CASE
      WHEN x.tail = 0
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(g.h AS DOUBLE PRECISION) / CAST(x.tail AS DOUBLE PRECISION)
    END AS severity
  FROM "pg_temp"."tpl it's_stats" AS g
  JOIN tails AS x
    ON x.gid = g.gid AND x.s = g.s
  WHERE
    g.n_values >= (
      CAST(%(min_values)s AS BIGINT)
    )
)
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(ok) AS ok,
  MAX(severity) AS severity
FROM t
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
