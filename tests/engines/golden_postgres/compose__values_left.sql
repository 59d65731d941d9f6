DROP TABLE IF EXISTS "pg_temp"."wk compose left's";
/* purpose: how many SA values the releases leave each target: the intersection over the releases holding its row of each release's union, for all of them and for every pair */
/* params: none */
/* returns: creates target(pid, present, n, left_all, left1..leftP); a target no release holds is left every value of the SA domain */
/* ref: docs/decisions/0005-composition-check.md; pair_bits (shape): the two releases' bits of each pair, in pair order */
CREATE TABLE "pg_temp"."wk compose left's" AS
WITH k AS (
  SELECT
    p.pid,
    k.present,
    k.n
  FROM "pg_temp"."wk compose keys's" AS k
  JOIN "pg_temp"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "pg_temp"."wk compose domain's"
)
SELECT
  k.pid,
  k.present,
  CAST(k.n AS BIGINT) AS n,
  CASE
    WHEN k.present = 0
    THEN d.size
    ELSE COUNT(m.sa) FILTER(WHERE
      (
        m.mask & k.present
      ) = k.present)
  END AS left_all,
  CASE
    WHEN (
      k.present & 3
    ) = 0
    THEN d.size
    ELSE COUNT(m.sa) FILTER(WHERE
      (
        m.mask & k.present & 3
      ) = (
        k.present & 3
      ))
  END AS "left1"
FROM k
CROSS JOIN d
LEFT JOIN "pg_temp"."wk compose membership's" AS m
  ON m.pid = k.pid
GROUP BY
  k.pid,
  k.present,
  k.n,
  d.size;
ANALYZE "pg_temp"."wk compose left's"
