/* purpose: reconcile a written Decomposition+ release: every pool row published once or kept back, the three tables' row counts, group sizes of QID- and SA-table, the marginals' SA counts against the published source rows, and the SA-table's counts against the marginals corrected by the noise log */
/* params: name, release, first_release, sa_names */
/* returns: received, arriving, assigned, distinct_assigned, assigned_in_pool, retained, qid_rows, sa_rows, marginal_rows, previous_rows, stream_rows, size_mismatches, marginal_mismatches, sa_mismatches, noise */
/* ref: issue 7 (rows published + retained = rows received; SA counts; the noise counted); DESIGN §6 */
WITH pool AS (
  SELECT
    COUNT(*) AS received,
    COUNT(*) FILTER(WHERE
      arrived = (
        CAST(%(release)s AS BIGINT)
      )) AS arriving
  FROM "pg_temp"."wk dec pool's"
), asg AS (
  SELECT
    COUNT(*) AS assigned,
    COUNT(DISTINCT a.rk) AS distinct_assigned,
    COUNT(p.rk) AS assigned_in_pool
  FROM "pg_temp"."wk dec assignment's" AS a
  LEFT JOIN "pg_temp"."wk dec pool's" AS p
    ON p.rk = a.rk
), ret AS (
  SELECT
    COUNT(*) AS n
  FROM "ldiv"."retained:main.rel it's"
), q AS (
  SELECT
    COUNT(*) AS n
  FROM "main"."rel it's_qid"
), s AS (
  SELECT
    COUNT(*) AS n
  FROM "main"."rel it's_sa"
), m AS (
  SELECT
    COUNT(*) AS n
  FROM "main"."rel it's_marginals"
), prev AS (
  SELECT
    COUNT(*) AS n
  FROM "pg_temp"."wk dec prev qid's"
), stream AS (
  SELECT
    COUNT(*) AS n
  FROM ldiv.stream_row
  WHERE
    name = (
      CAST(%(name)s AS TEXT)
    )
), sizes AS (
  SELECT
    COUNT(*) AS n
  FROM (
    SELECT
      g
    FROM (
      SELECT
        "group id" AS g,
        1 AS d
      FROM "main"."rel it's_qid"
      UNION ALL
      SELECT
        "group id",
        -1
      FROM "main"."rel it's_sa"
    ) AS ldiv_sq5
    GROUP BY
      g
    HAVING
      SUM(d) <> 0
  ) AS ldiv_sq1
), noise_all AS (
  SELECT
    sa,
    replaced,
    noise
  FROM "pg_temp"."wk dec noise's"
  UNION ALL
  SELECT
    sa,
    replaced,
    noise
  FROM ldiv.noise
  WHERE
    release_id IN (
      SELECT
        release_id
      FROM ldiv.release
      WHERE
        name = (
          CAST(%(name)s AS TEXT)
        ) AND release_id >= NULL
    )
), marg AS (
  SELECT
    COUNT(*) AS n
  FROM (
    SELECT
      1 AS s,
      v
    FROM (
      SELECT
        CAST("ünï" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_marginals"
      UNION ALL
      SELECT
        CAST("ünï" AS TEXT),
        -1
      FROM "pg_temp"."wk dec prev marginals's"
      UNION ALL
      SELECT
        CAST(p."c6" AS TEXT),
        -1
      FROM "pg_temp"."wk dec pool's" AS p
      JOIN "pg_temp"."wk dec assignment's" AS a
        ON a.rk = p.rk
    ) AS ldiv_sq6
    GROUP BY
      v
    HAVING
      SUM(d) <> 0
    UNION ALL
    SELECT
      2 AS s,
      v
    FROM (
      SELECT
        CAST("order" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_marginals"
      UNION ALL
      SELECT
        CAST("order" AS TEXT),
        -1
      FROM "pg_temp"."wk dec prev marginals's"
      UNION ALL
      SELECT
        CAST(p."c7" AS TEXT),
        -1
      FROM "pg_temp"."wk dec pool's" AS p
      JOIN "pg_temp"."wk dec assignment's" AS a
        ON a.rk = p.rk
    ) AS ldiv_sq7
    GROUP BY
      v
    HAVING
      SUM(d) <> 0
  ) AS ldiv_sq2
), sav AS (
  SELECT
    COUNT(*) AS n
  FROM (
    SELECT
      1 AS s,
      v
    FROM (
      SELECT
        CAST("ünï" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_sa"
      UNION ALL
      SELECT
        CAST("ünï" AS TEXT),
        -1
      FROM "main"."rel it's_marginals"
      UNION ALL
      SELECT
        replaced,
        1
      FROM noise_all
      WHERE
        sa = (
          CAST(%(sa_names)s AS TEXT[])
        )[1]
      UNION ALL
      SELECT
        noise,
        -1
      FROM noise_all
      WHERE
        sa = (
          CAST(%(sa_names)s AS TEXT[])
        )[1]
    ) AS ldiv_sq8
    GROUP BY
      v
    HAVING
      SUM(d) <> 0
    UNION ALL
    SELECT
      2 AS s,
      v
    FROM (
      SELECT
        CAST("order" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_sa"
      UNION ALL
      SELECT
        CAST("order" AS TEXT),
        -1
      FROM "main"."rel it's_marginals"
      UNION ALL
      SELECT
        replaced,
        1
      FROM noise_all
      WHERE
        sa = (
          CAST(%(sa_names)s AS TEXT[])
        )[2]
      UNION ALL
      SELECT
        noise,
        -1
      FROM noise_all
      WHERE
        sa = (
          CAST(%(sa_names)s AS TEXT[])
        )[2]
    ) AS ldiv_sq9
    GROUP BY
      v
    HAVING
      SUM(d) <> 0
  ) AS ldiv_sq3
)
SELECT
  pool.received,
  pool.arriving,
  asg.assigned,
  asg.distinct_assigned,
  asg.assigned_in_pool,
  ret.n AS retained,
  q.n AS qid_rows,
  s.n AS sa_rows,
  m.n AS marginal_rows,
  prev.n AS previous_rows,
  stream.n AS stream_rows,
  sizes.n AS size_mismatches,
  marg.n AS marginal_mismatches,
  sav.n AS sa_mismatches,
  (
    SELECT
      COUNT(*)
    FROM "pg_temp"."wk dec noise's"
  ) AS noise
FROM pool, asg, ret, q, s, m, prev, stream, sizes, marg, sav
