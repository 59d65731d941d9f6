DROP TABLE IF EXISTS "pg_temp"."wk compose shared's";
/* purpose: per word of SA values, each release's shared mask side by side: the values of its classes that cover every target (classes.sql's everywhere), which every target's union in that release holds */
/* params: none */
/* returns: creates target(word, a1..aM) (0 where a release has no such value in the word; words no release shares are absent) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target"); masks_of, classes_of (shape): each release's class masks and classes, in the releases' order; the releases' masks are stacked, then spread over the columns by one grouping (a column per release from one branch each kept the text and the plan linear in the releases, where a branch per release with a column per release grew with their square) */
CREATE TABLE "pg_temp"."wk compose shared's" AS
SELECT
  word,
  BIT_OR(CASE WHEN r = 1 THEN mask ELSE 0 END) AS "a1",
  BIT_OR(CASE WHEN r = 2 THEN mask ELSE 0 END) AS "a2"
FROM (
  SELECT
    1 AS r,
    cm.word,
    cm.mask
  FROM "pg_temp"."wk compose masks's" AS cm
  JOIN "pg_temp"."wk compose classes's" AS c
    ON c.cid = cm.cid
  WHERE
    c.everywhere
  UNION ALL
  SELECT
    2 AS r,
    cm.word,
    cm.mask
  FROM "pg_temp"."wk compose masks's" AS cm
  JOIN "pg_temp"."wk compose classes's" AS c
    ON c.cid = cm.cid
  WHERE
    c.everywhere
) AS u
GROUP BY
  word;
ANALYZE "pg_temp"."wk compose shared's"
