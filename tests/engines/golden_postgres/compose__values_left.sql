DROP TABLE IF EXISTS "pg_temp"."wk compose left's";
/* purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, counted bit by bit */
/* params: none */
/* returns: creates target(pid, present, n, left_all, left1..leftP); a target no release (of the pair) holds is left every value of the SA domain */
/* ref: docs/decisions/0005-composition-check.md; pairs (shape): the two releases' positions of each pair; a release not holding the row takes part as -1 (every bit set) */
CREATE TABLE "pg_temp"."wk compose left's" AS
WITH k AS (
  SELECT
    p.pid,
    k.present,
    k.n
  FROM "pg_temp"."wk compose keys's" AS k
  JOIN "pg_temp"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
), a AS (
  SELECT
    k.pid,
    k.present,
    k.n,
    CASE WHEN (
      k.present & 1
    ) = 0 THEN -1 ELSE COALESCE(m."m1", 0) END & CASE WHEN (
      k.present & 2
    ) = 0 THEN -1 ELSE COALESCE(m."m2", 0) END AS a_all,
    CASE WHEN (
      k.present & 1
    ) = 0 THEN -1 ELSE COALESCE(m."m1", 0) END & CASE WHEN (
      k.present & 2
    ) = 0 THEN -1 ELSE COALESCE(m."m2", 0) END AS "a1"
  FROM k
  LEFT JOIN "pg_temp"."wk compose membership's" AS m
    ON m.pid = k.pid
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "pg_temp"."wk compose domain's"
)
SELECT
  a.pid,
  a.present,
  CAST(a.n AS BIGINT) AS n,
  CASE
    WHEN a.present = 0
    THEN d.size
    ELSE SUM(
      (
        (
          a.a_all >> 0
        ) & 1
      ) + (
        (
          a.a_all >> 1
        ) & 1
      ) + (
        (
          a.a_all >> 2
        ) & 1
      ) + (
        (
          a.a_all >> 3
        ) & 1
      ) + (
        (
          a.a_all >> 4
        ) & 1
      ) + (
        (
          a.a_all >> 5
        ) & 1
      ) + (
        (
          a.a_all >> 6
        ) & 1
      ) + (
        (
          a.a_all >> 7
        ) & 1
      ) + (
        (
          a.a_all >> 8
        ) & 1
      ) + (
        (
          a.a_all >> 9
        ) & 1
      ) + (
        (
          a.a_all >> 10
        ) & 1
      ) + (
        (
          a.a_all >> 11
        ) & 1
      ) + (
        (
          a.a_all >> 12
        ) & 1
      ) + (
        (
          a.a_all >> 13
        ) & 1
      ) + (
        (
          a.a_all >> 14
        ) & 1
      ) + (
        (
          a.a_all >> 15
        ) & 1
      ) + (
        (
          a.a_all >> 16
        ) & 1
      ) + (
        (
          a.a_all >> 17
        ) & 1
      ) + (
        (
          a.a_all >> 18
        ) & 1
      ) + (
        (
          a.a_all >> 19
        ) & 1
      ) + (
        (
          a.a_all >> 20
        ) & 1
      ) + (
        (
          a.a_all >> 21
        ) & 1
      ) + (
        (
          a.a_all >> 22
        ) & 1
      ) + (
        (
          a.a_all >> 23
        ) & 1
      ) + (
        (
          a.a_all >> 24
        ) & 1
      ) + (
        (
          a.a_all >> 25
        ) & 1
      ) + (
        (
          a.a_all >> 26
        ) & 1
      ) + (
        (
          a.a_all >> 27
        ) & 1
      ) + (
        (
          a.a_all >> 28
        ) & 1
      ) + (
        (
          a.a_all >> 29
        ) & 1
      ) + (
        (
          a.a_all >> 30
        ) & 1
      ) + (
        (
          a.a_all >> 31
        ) & 1
      ) + (
        (
          a.a_all >> 32
        ) & 1
      ) + (
        (
          a.a_all >> 33
        ) & 1
      ) + (
        (
          a.a_all >> 34
        ) & 1
      ) + (
        (
          a.a_all >> 35
        ) & 1
      ) + (
        (
          a.a_all >> 36
        ) & 1
      ) + (
        (
          a.a_all >> 37
        ) & 1
      ) + (
        (
          a.a_all >> 38
        ) & 1
      ) + (
        (
          a.a_all >> 39
        ) & 1
      ) + (
        (
          a.a_all >> 40
        ) & 1
      ) + (
        (
          a.a_all >> 41
        ) & 1
      ) + (
        (
          a.a_all >> 42
        ) & 1
      ) + (
        (
          a.a_all >> 43
        ) & 1
      ) + (
        (
          a.a_all >> 44
        ) & 1
      ) + (
        (
          a.a_all >> 45
        ) & 1
      ) + (
        (
          a.a_all >> 46
        ) & 1
      ) + (
        (
          a.a_all >> 47
        ) & 1
      ) + (
        (
          a.a_all >> 48
        ) & 1
      ) + (
        (
          a.a_all >> 49
        ) & 1
      ) + (
        (
          a.a_all >> 50
        ) & 1
      ) + (
        (
          a.a_all >> 51
        ) & 1
      ) + (
        (
          a.a_all >> 52
        ) & 1
      ) + (
        (
          a.a_all >> 53
        ) & 1
      ) + (
        (
          a.a_all >> 54
        ) & 1
      ) + (
        (
          a.a_all >> 55
        ) & 1
      ) + (
        (
          a.a_all >> 56
        ) & 1
      ) + (
        (
          a.a_all >> 57
        ) & 1
      ) + (
        (
          a.a_all >> 58
        ) & 1
      ) + (
        (
          a.a_all >> 59
        ) & 1
      ) + (
        (
          a.a_all >> 60
        ) & 1
      ) + (
        (
          a.a_all >> 61
        ) & 1
      )
    )
  END AS left_all,
  CASE
    WHEN (
      a.present & 3
    ) = 0
    THEN d.size
    ELSE SUM(
      (
        (
          a."a1" >> 0
        ) & 1
      ) + (
        (
          a."a1" >> 1
        ) & 1
      ) + (
        (
          a."a1" >> 2
        ) & 1
      ) + (
        (
          a."a1" >> 3
        ) & 1
      ) + (
        (
          a."a1" >> 4
        ) & 1
      ) + (
        (
          a."a1" >> 5
        ) & 1
      ) + (
        (
          a."a1" >> 6
        ) & 1
      ) + (
        (
          a."a1" >> 7
        ) & 1
      ) + (
        (
          a."a1" >> 8
        ) & 1
      ) + (
        (
          a."a1" >> 9
        ) & 1
      ) + (
        (
          a."a1" >> 10
        ) & 1
      ) + (
        (
          a."a1" >> 11
        ) & 1
      ) + (
        (
          a."a1" >> 12
        ) & 1
      ) + (
        (
          a."a1" >> 13
        ) & 1
      ) + (
        (
          a."a1" >> 14
        ) & 1
      ) + (
        (
          a."a1" >> 15
        ) & 1
      ) + (
        (
          a."a1" >> 16
        ) & 1
      ) + (
        (
          a."a1" >> 17
        ) & 1
      ) + (
        (
          a."a1" >> 18
        ) & 1
      ) + (
        (
          a."a1" >> 19
        ) & 1
      ) + (
        (
          a."a1" >> 20
        ) & 1
      ) + (
        (
          a."a1" >> 21
        ) & 1
      ) + (
        (
          a."a1" >> 22
        ) & 1
      ) + (
        (
          a."a1" >> 23
        ) & 1
      ) + (
        (
          a."a1" >> 24
        ) & 1
      ) + (
        (
          a."a1" >> 25
        ) & 1
      ) + (
        (
          a."a1" >> 26
        ) & 1
      ) + (
        (
          a."a1" >> 27
        ) & 1
      ) + (
        (
          a."a1" >> 28
        ) & 1
      ) + (
        (
          a."a1" >> 29
        ) & 1
      ) + (
        (
          a."a1" >> 30
        ) & 1
      ) + (
        (
          a."a1" >> 31
        ) & 1
      ) + (
        (
          a."a1" >> 32
        ) & 1
      ) + (
        (
          a."a1" >> 33
        ) & 1
      ) + (
        (
          a."a1" >> 34
        ) & 1
      ) + (
        (
          a."a1" >> 35
        ) & 1
      ) + (
        (
          a."a1" >> 36
        ) & 1
      ) + (
        (
          a."a1" >> 37
        ) & 1
      ) + (
        (
          a."a1" >> 38
        ) & 1
      ) + (
        (
          a."a1" >> 39
        ) & 1
      ) + (
        (
          a."a1" >> 40
        ) & 1
      ) + (
        (
          a."a1" >> 41
        ) & 1
      ) + (
        (
          a."a1" >> 42
        ) & 1
      ) + (
        (
          a."a1" >> 43
        ) & 1
      ) + (
        (
          a."a1" >> 44
        ) & 1
      ) + (
        (
          a."a1" >> 45
        ) & 1
      ) + (
        (
          a."a1" >> 46
        ) & 1
      ) + (
        (
          a."a1" >> 47
        ) & 1
      ) + (
        (
          a."a1" >> 48
        ) & 1
      ) + (
        (
          a."a1" >> 49
        ) & 1
      ) + (
        (
          a."a1" >> 50
        ) & 1
      ) + (
        (
          a."a1" >> 51
        ) & 1
      ) + (
        (
          a."a1" >> 52
        ) & 1
      ) + (
        (
          a."a1" >> 53
        ) & 1
      ) + (
        (
          a."a1" >> 54
        ) & 1
      ) + (
        (
          a."a1" >> 55
        ) & 1
      ) + (
        (
          a."a1" >> 56
        ) & 1
      ) + (
        (
          a."a1" >> 57
        ) & 1
      ) + (
        (
          a."a1" >> 58
        ) & 1
      ) + (
        (
          a."a1" >> 59
        ) & 1
      ) + (
        (
          a."a1" >> 60
        ) & 1
      ) + (
        (
          a."a1" >> 61
        ) & 1
      )
    )
  END AS "left1"
FROM a
CROSS JOIN d
GROUP BY
  a.pid,
  a.present,
  a.n,
  d.size;
ANALYZE "pg_temp"."wk compose left's"
