DROP TABLE IF EXISTS "pg_temp"."wk compose combos's";
/* purpose: per target vector and set of releases holding its rows, the unit each of those releases leaves it (compose/units.sql), and per set of releases the check counts (sets) the number of the target's combination in it: targets of one combination are left the same values by that set */
/* params: none */
/* returns: creates target(pid, present, u1..uM, c0..cP): u<r> NULL where release r does not hold the rows (it tells nothing) or no class but a shared one covers the target; c<s> numbers the distinct (present within set s, the units of set s's releases) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the values left are computed once per combination, not per target); sets (shape): the releases of each set, 1-based (values_left.sql's), set_bits their bits */
CREATE TABLE "pg_temp"."wk compose combos's" AS
WITH tp AS (
  SELECT DISTINCT
    p.pid,
    k.present
  FROM "pg_temp"."wk compose keys's" AS k
  JOIN "pg_temp"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
), tu AS (
  SELECT
    tp.pid,
    tp.present,
    CASE WHEN (
      tp.present & 1
    ) <> 0 THEN "x1".uid END AS "u1",
    CASE WHEN (
      tp.present & 2
    ) <> 0 THEN "x2".uid END AS "u2"
  FROM tp
  LEFT JOIN "pg_temp"."wk compose units's" AS "x1"
    ON "x1".pid = tp.pid
  LEFT JOIN "pg_temp"."wk compose units's" AS "x2"
    ON "x2".pid = tp.pid
)
SELECT
  pid,
  present,
  "u1",
  "u2",
  DENSE_RANK() OVER (ORDER BY present & 3, "u1", "u2") AS "c0",
  DENSE_RANK() OVER (ORDER BY present & 3, "u1", "u2") AS "c1"
FROM tu;
ANALYZE "pg_temp"."wk compose combos's"
