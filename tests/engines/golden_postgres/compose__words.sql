DROP TABLE IF EXISTS "pg_temp"."wk compose words's";
/* purpose: per combination of units (compose/combos.sql), the words of SA values where the releases' intersection can hold a value: the words of the unit of the release compose/driving.sql chose, or, where it chose none (every release holding the rows has a shared mask), of every unit of a release holding the rows */
/* params: none */
/* returns: creates target(cmb, word) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the intersection over the releases holding the rows is empty outside the words of any one of them without a shared mask, compose/shared.sql; values_left.sql counts the shared words apart; "More than 62 releases": a table of its own, which compose/membership.sql reads once per release). noshared (shape): per release, true when it has no shared mask; present is keys.sql's text, one character per release */
CREATE TABLE "pg_temp"."wk compose words's" AS
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
  AND t."first" = 9223372036854775807;
ANALYZE "pg_temp"."wk compose words's"
