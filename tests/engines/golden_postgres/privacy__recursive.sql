DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
/* params: ls, c_num, c_den */
/* returns: creates target(gid, size, ok, severity); severity = r1 / tail (tail 0 = +inf) */
/* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); a group without a counts row (fewer values than the smallest l) skips the list sum, which PostgreSQL runs as a subquery per row */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
WITH t AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.n_values,
    (
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[g.s] AS l,
    CAST(g.h AS DECIMAL) AS r1,
    CAST(CASE
      WHEN c.gid IS NULL
      THEN 0
      ELSE COALESCE(
        (
          SELECT
            SUM(v)
          FROM UNNEST((
            c.counts
          )[(
            (
              (
                CAST(%(ls)s AS BIGINT[])
              )
            )[g.s]
          ):(
            CARDINALITY(c.counts)
          )]) AS u(v)
        ),
        0
      )
    END AS DECIMAL) AS tail
  FROM "pg_temp"."tpl it's_stats" AS g
  LEFT JOIN "pg_temp"."tpl it's_counts_2" AS c
    ON c.gid = g.gid AND c.s = g.s
)
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(
    n_values >= l
    AND r1 * (
      CAST(%(c_den)s AS BIGINT)
    ) < (
      CAST(%(c_num)s AS BIGINT)
    ) * tail
  ) AS ok,
  MAX(
    CASE
      WHEN tail = 0
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(r1 AS DOUBLE PRECISION) / CAST(tail AS DOUBLE PRECISION)
    END
  ) AS severity
FROM t
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
