/* purpose: statistics of the chosen cut on the histogram: partitions, rows, deleted rows, rows with a suppressed SA value */
/* params: none */
/* returns: partitions, rows, deleted, sa_suppressed, published_partitions */
/* ref: SPEC §5.3–5.4 (cross-check of the search's decisions before the release is written) */
SELECT
  COUNT(DISTINCT c.gid) AS partitions,
  CAST(COALESCE(SUM(h.n), 0) AS BIGINT) AS rows,
  CAST(COALESCE(SUM(c.n_delete), 0) AS BIGINT) AS deleted,
  CAST(COALESCE(SUM(CASE WHEN c.suppress THEN h.n - c.n_delete ELSE 0 END), 0) AS BIGINT) AS sa_suppressed,
  COUNT(DISTINCT CASE WHEN h.n > c.n_delete THEN c.gid END) AS published_partitions
FROM "pg_temp"."wk lplus cells's" AS c
JOIN (
  SELECT
    "l1",
    "l2",
    "l3",
    "l4",
    s,
    k,
    COUNT(*) AS n
  FROM "pg_temp"."wk lplus rows's"
  GROUP BY
    1,
    2,
    3,
    4,
    5,
    6
) AS h
  ON h."l1" = c."l1"
  AND h."l2" = c."l2"
  AND h."l3" = c."l3"
  AND h."l4" = c."l4"
  AND (
    h.s IS NULL
  ) = (
    c.s IS NULL
  )
  AND COALESCE(CAST(h.s AS TEXT), '') = COALESCE(CAST(c.s AS TEXT), '')
  AND (
    h.k IS NULL
  ) = (
    c.k IS NULL
  )
  AND COALESCE(CAST(h.k AS TEXT), '') = COALESCE(CAST(c.k AS TEXT), '')
