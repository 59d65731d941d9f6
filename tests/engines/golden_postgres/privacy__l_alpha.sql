DROP TABLE IF EXISTS "pg_temp"."tpl it's_verdict";
/* purpose: (l,alpha)-diversity verdict per group: >= l distinct values, group weight >= alpha (exact), plus the entropy or recursive test over categories (or values) */
/* params: ls, a_num, a_den, w_den, c_num, c_den */
/* returns: creates target(gid, size, ok, severity, weight_num); weight = weight_num / w_den; severity = alpha - weight (as a double) or the failing test */
/* ref: SPEC §3.2 (group weight over rows; entropy and recursive over category counts) */
CREATE TABLE "pg_temp"."tpl it's_verdict" AS
WITH cells AS (
  SELECT
    hs.gid,
    hs.s,
    hs.v,
    CAST(hs.n AS DECIMAL) AS n,
    cat.category,
    cat.p AS w_num
  FROM "pg_temp"."tpl it's_hist" AS hs
  JOIN "pg_temp"."tpl it's_values" AS cat
    ON cat.s = hs.s
    AND (
      cat.v IS NULL
    ) = (
      hs.v IS NULL
    )
    AND COALESCE(CAST(cat.v AS TEXT), '') = COALESCE(CAST(hs.v AS TEXT), '')
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
  GROUP BY
    1,
    2,
    3
), unit_stats AS (
  SELECT
    gid,
    s,
    COUNT(*) AS q,
    ARRAY_AGG(n ORDER BY n DESC NULLS LAST) AS counts
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
    g.n_values >= (
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[g.s] AS distinct_ok,
    w.weight_num * (
      CAST(%(a_den)s AS BIGINT)
    ) >= (
      CAST(%(a_num)s AS BIGINT)
    ) * (
      CAST(%(w_den)s AS BIGINT)
    ) AS weight_ok,
    u.q >= (
      (
        CAST(%(ls)s AS BIGINT[])
      )
    )[g.s]
    AND CAST(u.counts[1] AS DECIMAL) * (
      CAST(%(c_den)s AS BIGINT)
    ) < (
      CAST(%(c_num)s AS BIGINT)
    ) * CAST(COALESCE(
      (
        SELECT
          SUM(v)
        FROM UNNEST((
          u.counts
        )[(
          (
            (
              CAST(%(ls)s AS BIGINT[])
            )
          )[g.s]
        ):(
          CARDINALITY(u.counts)
        )]) AS u(v)
      ),
      0
    ) AS DECIMAL) AS extra_ok
  FROM "pg_temp"."tpl it's_stats" AS g
  JOIN weights AS w
    ON w.gid = g.gid AND w.s = g.s
  JOIN unit_stats AS u
    ON u.gid = g.gid AND u.s = g.s
)
SELECT
  gid,
  MAX(size) AS size,
  BOOL_AND(distinct_ok AND weight_ok AND extra_ok) AS ok,
  MAX(
    CASE
      WHEN distinct_ok AND weight_ok AND extra_ok
      THEN 0.0
      WHEN NOT distinct_ok
      THEN 3.0
      WHEN NOT weight_ok
      THEN 2.0 + (
        CAST((
          CAST(%(a_num)s AS BIGINT)
        ) AS DOUBLE PRECISION) / (
          CAST(%(a_den)s AS BIGINT)
        ) - CAST(weight_num AS DOUBLE PRECISION) / (
          CAST(%(w_den)s AS BIGINT)
        )
      )
      ELSE 1.0
    END
  ) AS severity,
  MIN(weight_num) AS weight_num
FROM judged
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_verdict"
