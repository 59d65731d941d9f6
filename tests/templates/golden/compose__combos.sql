/* purpose: per target vector and set of releases holding its rows, the unit each of those releases leaves it (compose/units.sql), and the number of its combination: targets of one combination are left the same values by the releases */
/* params: none */
/* returns: creates target(pid, present, u1..uM, cmb): u<r> 0 where release r does not hold the rows (it tells nothing) or no class but a shared one covers the target (a unit is never 0: compose/units.sql); cmb names the distinct (present, u1..uM) by its least (pid, present) number: a target vector whose rows are held by different releases (a release deleted some of them) is in several combinations, so its pid alone names none */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the values left are computed once per combination, not per target); present is keys.sql's text, one character per release; the releases' units are stacked and spread over the columns by one grouping, so the statement's plan grows with the releases, not with their square as a join per release did */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose combos's" AS
WITH tp AS (
  SELECT
    pid,
    present,
    ROW_NUMBER() OVER (ORDER BY pid, present) AS tid
  FROM (
    SELECT DISTINCT
      p.pid,
      k.present
    FROM "temp"."main"."wk compose keys's" AS k
    JOIN "temp"."main"."wk compose points's" AS p
      ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
  ) AS d
), tu AS (
  SELECT
    tp.pid,
    tp.present,
    tp.tid,
    COALESCE(MAX(CASE WHEN x.r = 1 AND SUBSTRING(tp.present, 1, 1) = '1' THEN x.uid END), 0) AS "u1",
    COALESCE(MAX(CASE WHEN x.r = 2 AND SUBSTRING(tp.present, 2, 1) = '1' THEN x.uid END), 0) AS "u2"
  FROM tp
  LEFT JOIN (
    SELECT
      1 AS r,
      pid,
      uid
    FROM "temp"."main"."wk compose units's"
    UNION ALL
    SELECT
      2 AS r,
      pid,
      uid
    FROM "temp"."main"."wk compose units's"
  ) AS x
    ON x.pid = tp.pid
  GROUP BY
    tp.pid,
    tp.present,
    tp.tid
)
SELECT
  pid,
  present,
  "u1",
  "u2",
  MIN(tid) OVER (PARTITION BY present, "u1", "u2") AS cmb
FROM tu
