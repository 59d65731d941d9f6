DROP TABLE IF EXISTS "pg_temp"."wk compose left's";
/* purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, its bits counted (bit_count) */
/* params: none */
/* returns: creates target(pid, present, n, cmb, left_all) (cmb: the target's combination, compose/combos.sql); a target no release holds is left every value of the SA domain */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target", "A class that covers many targets"); a release not holding the row (a '0' in keys.sql's present text) takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR its unit's mask (membership.sql). The counts are made once per combination of units (membership.sql's rows), then given to the targets of the combination. Words where the combination has no own mask count the same for every target held by the same releases: g counts every shared word once per such presence, and each own word replaces its shared-only count (y) by its full one (x) */
CREATE TABLE "pg_temp"."wk compose left's" AS
WITH k AS (
  SELECT
    p.pid,
    k.present,
    k.n,
    c.cmb
  FROM "pg_temp"."wk compose keys's" AS k
  JOIN "pg_temp"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
  JOIN "pg_temp"."wk compose combos's" AS c
    ON c.pid = p.pid AND c.present = k.present
), a AS (
  SELECT
    cp.cmb,
    CASE
      WHEN SUBSTRING(cp.present FROM 1 FOR 1) = '1'
      THEN COALESCE(s."a1", 0) | COALESCE(m."m1", 0)
      ELSE -1
    END & CASE
      WHEN SUBSTRING(cp.present FROM 2 FOR 1) = '1'
      THEN COALESCE(s."a2", 0) | COALESCE(m."m2", 0)
      ELSE -1
    END AS x,
    CASE
      WHEN SUBSTRING(cp.present FROM 1 FOR 1) = '1'
      THEN COALESCE(s."a1", 0)
      ELSE -1
    END & CASE
      WHEN SUBSTRING(cp.present FROM 2 FOR 1) = '1'
      THEN COALESCE(s."a2", 0)
      ELSE -1
    END AS y
  FROM (
    SELECT DISTINCT
      cmb,
      present
    FROM k
  ) AS cp
  LEFT JOIN "pg_temp"."wk compose membership's" AS m
    ON m.cmb = cp.cmb
  LEFT JOIN "pg_temp"."wk compose shared's" AS s
    ON s.word = m.word
), own AS (
  SELECT
    cmb,
    SUM(BIT_COUNT(CAST(x AS BIT(64)))) - SUM(BIT_COUNT(CAST(y AS BIT(64)))) AS o
  FROM a
  GROUP BY
    cmb
), h AS (
  SELECT DISTINCT
    present
  FROM k
), z AS (
  SELECT
    h.present,
    CASE
      WHEN SUBSTRING(h.present FROM 1 FOR 1) = '1'
      THEN COALESCE(s."a1", 0)
      ELSE -1
    END & CASE
      WHEN SUBSTRING(h.present FROM 2 FOR 1) = '1'
      THEN COALESCE(s."a2", 0)
      ELSE -1
    END AS z
  FROM h
  CROSS JOIN "pg_temp"."wk compose shared's" AS s
), g AS (
  SELECT
    present,
    SUM(BIT_COUNT(CAST(z AS BIT(64)))) AS g
  FROM z
  GROUP BY
    present
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "pg_temp"."wk compose domain's"
)
SELECT
  k.pid,
  k.present,
  CAST(k.n AS BIGINT) AS n,
  k.cmb,
  CAST(CASE WHEN k.present NOT LIKE '%1%' THEN d.size ELSE own.o + COALESCE(g.g, 0) END AS BIGINT) AS left_all
FROM k
JOIN own
  ON own.cmb = k.cmb
CROSS JOIN d
LEFT JOIN g
  ON g.present = k.present;
ANALYZE "pg_temp"."wk compose left's"
