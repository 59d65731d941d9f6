/* purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, their bits counted (bit_count) */
/* params: none */
/* returns: creates target(pid, present, n, cmb, left_all, left1..leftP) (cmb: the target's combination of all releases, compose/combos.sql's c0); a target no release (of the pair) holds is left every value of the SA domain */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target", "A class that covers many targets"); sets (shape): the sets of releases counted, all of them first, then each pair not equal to it (1-based), set_bits their bits; pairs: the two releases' positions of each pair, pair_sets the position of its set in sets; a release not holding the row takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR its unit's mask (membership.sql). Each set's counts are made once per combination of its units (membership.sql's rows of the set; one row per combination by its grouping, whatever the presence outside the set), then given to the targets of the combination. Words where the combination has no own mask count the same for every target held by the same releases: g counts every shared word once per such set, and each own word replaces its shared-only count (y) by its full one (x) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose left's" AS
WITH k AS (
  SELECT
    p.pid,
    k.present,
    k.n,
    c."c0"
  FROM "temp"."main"."wk compose keys's" AS k
  JOIN "temp"."main"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
  JOIN "temp"."main"."wk compose combos's" AS c
    ON c.pid = p.pid AND c.present = k.present
), "a0" AS (
  SELECT
    cp.cmb,
    CASE
      WHEN (
        cp.present & 1
      ) = 0
      THEN -1
      ELSE COALESCE(s."a1", 0) | COALESCE(m."m1", 0)
    END & CASE
      WHEN (
        cp.present & 2
      ) = 0
      THEN -1
      ELSE COALESCE(s."a2", 0) | COALESCE(m."m2", 0)
    END AS x,
    CASE WHEN (
      cp.present & 1
    ) = 0 THEN -1 ELSE COALESCE(s."a1", 0) END & CASE WHEN (
      cp.present & 2
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS y
  FROM (
    SELECT
      "c0" AS cmb,
      MIN(present & 3) AS present
    FROM k
    GROUP BY
      "c0"
  ) AS cp
  LEFT JOIN "temp"."main"."wk compose membership's" AS m
    ON m.s = 0 AND m.cmb = cp.cmb
  LEFT JOIN "temp"."main"."wk compose shared's" AS s
    ON s.word = m.word
), "own0" AS (
  SELECT
    cmb,
    SUM(BIT_COUNT(x)) - SUM(BIT_COUNT(y)) AS o
  FROM "a0"
  GROUP BY
    cmb
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
    ) = 0 THEN -1 ELSE COALESCE(s."a2", 0) END AS "z0"
  FROM h
  CROSS JOIN "temp"."main"."wk compose shared's" AS s
), g AS (
  SELECT
    present,
    SUM(BIT_COUNT("z0")) AS "g0"
  FROM z
  GROUP BY
    present
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "temp"."main"."wk compose domain's"
)
SELECT
  k.pid,
  k.present,
  CAST(k.n AS BIGINT) AS n,
  k."c0" AS cmb,
  CAST(CASE WHEN k.present = 0 THEN d.size ELSE "own0".o + COALESCE(g."g0", 0) END AS BIGINT) AS left_all,
  CAST(CASE
    WHEN (
      k.present & 3
    ) = 0
    THEN d.size
    ELSE "own0".o + COALESCE(g."g0", 0)
  END AS BIGINT) AS "left1"
FROM k
JOIN "own0"
  ON "own0".cmb = k."c0"
CROSS JOIN d
LEFT JOIN g
  ON g.present = k.present
