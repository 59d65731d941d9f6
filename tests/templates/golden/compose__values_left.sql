/* purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, their bits counted (bit_count) */
/* params: none */
/* returns: creates target(pid, present, n, left_all, left1..leftP); a target no release (of the pair) holds is left every value of the SA domain */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target"); pairs (shape): the two releases' positions of each pair; a release not holding the row takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR the target's own mask (membership.sql). Words where the target has no own mask count the same for every target held by the same releases: g counts every shared word once per such set, and each own word replaces its shared-only count (y) by its full one (x) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose left's" AS
WITH k AS (
  SELECT
    p.pid,
    k.present,
    k.n
  FROM "temp"."main"."wk compose keys's" AS k
  JOIN "temp"."main"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
), a AS (
  SELECT
    k.pid,
    k.present,
    k.n,
    CASE
      WHEN (
        k.present & 1
      ) = 0
      THEN -1
      ELSE COALESCE(s."a1", 0) | COALESCE(m."m1", 0)
    END & CASE
      WHEN (
        k.present & 2
      ) = 0
      THEN -1
      ELSE COALESCE(s."a2", 0) | COALESCE(m."m2", 0)
    END AS "x0",
    CASE WHEN (
      k.present & 1
    ) = 0 THEN -1 ELSE COALESCE(s."a1", 0) END & CASE WHEN (
      k.present & 2
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS "y0",
    CASE
      WHEN (
        k.present & 1
      ) = 0
      THEN -1
      ELSE COALESCE(s."a1", 0) | COALESCE(m."m1", 0)
    END & CASE
      WHEN (
        k.present & 2
      ) = 0
      THEN -1
      ELSE COALESCE(s."a2", 0) | COALESCE(m."m2", 0)
    END AS "x1",
    CASE WHEN (
      k.present & 1
    ) = 0 THEN -1 ELSE COALESCE(s."a1", 0) END & CASE WHEN (
      k.present & 2
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS "y1"
  FROM k
  LEFT JOIN "temp"."main"."wk compose membership's" AS m
    ON m.pid = k.pid
  LEFT JOIN "temp"."main"."wk compose shared's" AS s
    ON s.word = m.word
), own AS (
  SELECT
    pid,
    present,
    n,
    SUM(BIT_COUNT("x0")) - SUM(BIT_COUNT("y0")) AS "o0",
    SUM(BIT_COUNT("x1")) - SUM(BIT_COUNT("y1")) AS "o1"
  FROM a
  GROUP BY
    pid,
    present,
    n
), h AS (
  SELECT DISTINCT
    present
  FROM k
), z AS (
  SELECT
    h.present,
    CASE WHEN (
      h.present & 1
    ) = 0 THEN -1 ELSE COALESCE(s."a1", 0) END & CASE WHEN (
      h.present & 2
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS "z0",
    CASE WHEN (
      h.present & 1
    ) = 0 THEN -1 ELSE COALESCE(s."a1", 0) END & CASE WHEN (
      h.present & 2
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS "z1"
  FROM h
  CROSS JOIN "temp"."main"."wk compose shared's" AS s
), g AS (
  SELECT
    present,
    SUM(BIT_COUNT("z0")) AS "g0",
    SUM(BIT_COUNT("z1")) AS "g1"
  FROM z
  GROUP BY
    present
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "temp"."main"."wk compose domain's"
)
SELECT
  own.pid,
  own.present,
  CAST(own.n AS BIGINT) AS n,
  CAST(CASE WHEN own.present = 0 THEN d.size ELSE own."o0" + COALESCE(g."g0", 0) END AS BIGINT) AS left_all,
  CAST(CASE
    WHEN (
      own.present & 3
    ) = 0
    THEN d.size
    ELSE own."o1" + COALESCE(g."g1", 0)
  END AS BIGINT) AS "left1"
FROM own
CROSS JOIN d
LEFT JOIN g
  ON g.present = own.present
