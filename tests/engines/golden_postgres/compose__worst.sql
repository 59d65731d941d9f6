/* purpose: the targets the releases leave fewest SA values: their QI values and the values left (never a source row id) */
/* params: worst */
/* returns: left_all, n, v1..vk, sa_left (a list, in text order); fewest values first, then most rows, then the vectors' order */
/* ref: docs/decisions/0005-composition-check.md; targets no release holds are left every value and are not listed */
WITH w AS (
  SELECT
    pid,
    present,
    n,
    left_all
  FROM "pg_temp"."wk compose left's"
  WHERE
    present <> 0
  ORDER BY
    left_all,
    n DESC NULLS LAST,
    pid
  LIMIT (
    CAST(%(worst)s AS BIGINT)
  )
)
SELECT
  w.left_all,
  w.n,
  p."v1",
  p."v2",
  p."v3",
  p."v4",
  ARRAY_AGG(m.sa ORDER BY m.sa) FILTER(WHERE
    (
      m.mask & w.present
    ) = w.present) AS sa_left
FROM w
JOIN "pg_temp"."wk compose points's" AS p
  ON p.pid = w.pid
LEFT JOIN "pg_temp"."wk compose membership's" AS m
  ON m.pid = w.pid
GROUP BY
  w.pid,
  w.present,
  w.n,
  w.left_all,
  p."v1",
  p."v2",
  p."v3",
  p."v4"
ORDER BY
  w.left_all,
  w.n DESC NULLS LAST,
  w.pid
