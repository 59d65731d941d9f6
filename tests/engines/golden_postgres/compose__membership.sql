DROP TABLE IF EXISTS "pg_temp"."wk compose membership's";
/* purpose: per combination of units (compose/combos.sql) and word of SA values, each release's union mask side by side, on the words where the releases' intersection can hold a value */
/* params: none */
/* returns: creates target(cmb, word, m1..mM): m<r> 0 where release r leaves no value of the word or does not hold the rows */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"). The intersection over the releases holding the rows is empty outside the words of any one of them without a shared mask (compose/shared.sql): per combination, the words of the release compose/driving.sql chose are enough; where it chose none (every release holding the rows has a shared mask), the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read once per combination, on the few words of another release's unit where there is one. present is keys.sql's text, one character per release */
CREATE TABLE "pg_temp"."wk compose membership's" AS
WITH words AS (
  SELECT
    t.cmb,
    m.word
  FROM "pg_temp"."wk compose driving's" AS t
  JOIN "pg_temp"."wk compose unit masks's" AS m
    ON m.uid = t."u1"
  WHERE
    SUBSTRING(t.present FROM 1 FOR 1) = '1' AND t."u1" <> 0 AND t."first" = 1
  UNION
  SELECT
    t.cmb,
    m.word
  FROM "pg_temp"."wk compose driving's" AS t
  JOIN "pg_temp"."wk compose unit masks's" AS m
    ON m.uid = t."u2"
  WHERE
    SUBSTRING(t.present FROM 2 FOR 1) = '1'
    AND t."u2" <> 0
    AND t."first" = 9223372036854775807
)
SELECT
  w.cmb,
  w.word,
  COALESCE("y1".mask, 0) AS "m1",
  COALESCE("y2".mask, 0) AS "m2"
FROM words AS w
JOIN "pg_temp"."wk compose driving's" AS cu
  ON cu.cmb = w.cmb
LEFT JOIN "pg_temp"."wk compose unit masks's" AS "y1"
  ON "y1".uid = cu."u1" AND "y1".word = w.word
LEFT JOIN "pg_temp"."wk compose unit masks's" AS "y2"
  ON "y2".uid = cu."u2" AND "y2".word = w.word;
ANALYZE "pg_temp"."wk compose membership's"
