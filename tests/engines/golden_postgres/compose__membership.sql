DROP TABLE IF EXISTS "pg_temp"."wk compose membership's";
/* purpose: per set of releases the check counts, combination of units in it (compose/combos.sql) and word of SA values, each release's union mask side by side, on the words where the set's intersection can hold a value */
/* params: none */
/* returns: creates target(s, cmb, word, m1..mM): s the set's position in sets (0: all releases), cmb its combination (combos' c<s>); m<r> 0 where release r leaves no value of the word, does not hold the rows or is not in the set */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"; the chosen release is named by two least() over the set's releases, so the statement grows with the releases, not their pairs). The intersection over a set of releases holding the rows is empty outside the words of any one of them without a shared mask (compose/shared.sql): per combination, the words of such a release's unit with the fewest words (the first on ties) are enough; where every release of the set holding the rows has a shared mask, the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read once per combination of the set, on the few words of another release's unit where there is one */
CREATE TABLE "pg_temp"."wk compose membership's" AS
WITH "n1" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
), "n2" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
), "q0" AS (
  SELECT
    cu.*,
    COALESCE("c1".w, 0) AS "w1",
    COALESCE("c2".w, 0) AS "w2"
  FROM (
    SELECT
      "c0" AS cmb,
      MIN(present & 3) AS present,
      MIN("u1") AS "u1",
      MIN("u2") AS "u2"
    FROM "pg_temp"."wk compose combos's"
    GROUP BY
      "c0"
  ) AS cu
  LEFT JOIN "n1" AS "c1"
    ON "c1".uid = cu."u1"
  LEFT JOIN "n2" AS "c2"
    ON "c2".uid = cu."u2"
), "m0" AS (
  SELECT
    q.*,
    LEAST(
      9223372036854775807,
      CASE WHEN (
        present & 1
      ) <> 0 THEN "w1" ELSE 9223372036854775807 END
    ) AS fewest
  FROM "q0" AS q
), "t0" AS (
  SELECT
    m.*,
    LEAST(
      9223372036854775807,
      CASE
        WHEN (
          present & 1
        ) <> 0 AND "w1" = fewest
        THEN 1
        ELSE 9223372036854775807
      END
    ) AS "first"
  FROM "m0" AS m
), chosen AS (
  SELECT
    0 AS s,
    cmb,
    1 AS r,
    "u1" AS uid
  FROM "t0"
  WHERE
    (
      present & 1
    ) <> 0 AND "u1" <> 0 AND "first" = 1
  UNION ALL
  SELECT
    0 AS s,
    cmb,
    2 AS r,
    "u2" AS uid
  FROM "t0"
  WHERE
    (
      present & 2
    ) <> 0 AND "u2" <> 0 AND "first" = 9223372036854775807
), words AS (
  SELECT
    c.s,
    c.cmb,
    m.word
  FROM chosen AS c
  JOIN "pg_temp"."wk compose unit masks's" AS m
    ON m.uid = c.uid
  WHERE
    c.r = 1
  UNION
  SELECT
    c.s,
    c.cmb,
    m.word
  FROM chosen AS c
  JOIN "pg_temp"."wk compose unit masks's" AS m
    ON m.uid = c.uid
  WHERE
    c.r = 2
)
SELECT
  w.s,
  w.cmb,
  w.word,
  COALESCE("y1".mask, 0) AS "m1",
  COALESCE("y2".mask, 0) AS "m2"
FROM words AS w
JOIN "t0" AS cu
  ON cu.cmb = w.cmb
LEFT JOIN "pg_temp"."wk compose unit masks's" AS "y1"
  ON "y1".uid = cu."u1" AND "y1".word = w.word
LEFT JOIN "pg_temp"."wk compose unit masks's" AS "y2"
  ON "y2".uid = cu."u2" AND "y2".word = w.word
WHERE
  w.s = 0;
ANALYZE "pg_temp"."wk compose membership's"
