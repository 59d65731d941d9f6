/* purpose: per combination of units (compose/combos.sql) and word of SA values where the releases' intersection can hold a value (compose/words.sql), each release's union mask side by side */
/* params: none */
/* returns: creates target(cmb, word, m1..mM): m<r> 0 where release r leaves no value of the word or does not hold the rows */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": a class that covers many targets is read once per combination, on the few words of another release's unit where there is one; "More than 62 releases": the releases' masks are stacked and spread over the columns by one grouping, so the statement's plan grows with the releases, not with their square as a join per release did). A release that does not hold the rows has unit 0 in compose/combos.sql, which no unit is */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose membership's" AS
SELECT
  cmb,
  word,
  BIT_OR(CASE WHEN r = 1 THEN mask ELSE 0 END) AS "m1",
  BIT_OR(CASE WHEN r = 2 THEN mask ELSE 0 END) AS "m2"
FROM (
  SELECT
    w.cmb,
    w.word,
    1 AS r,
    y.mask
  FROM "temp"."main"."wk compose words's" AS w
  JOIN "temp"."main"."wk compose driving's" AS cu
    ON cu.cmb = w.cmb
  JOIN "temp"."main"."wk compose unit masks's" AS y
    ON y.uid = cu."u1" AND y.word = w.word
  UNION ALL
  SELECT
    w.cmb,
    w.word,
    2 AS r,
    y.mask
  FROM "temp"."main"."wk compose words's" AS w
  JOIN "temp"."main"."wk compose driving's" AS cu
    ON cu.cmb = w.cmb
  JOIN "temp"."main"."wk compose unit masks's" AS y
    ON y.uid = cu."u2" AND y.word = w.word
) AS b
GROUP BY
  cmb,
  word
