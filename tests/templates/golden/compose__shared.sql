/* purpose: per word of SA values, each release's shared mask side by side: the values of its classes that cover every target (classes.sql's everywhere), which every target's union in that release holds */
/* params: none */
/* returns: creates target(word, a1..aM) (0 where a release has no such value in the word; words no release shares are absent) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target"); masks_of, classes_of (shape): each release's class masks and classes, in the releases' order */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose shared's" AS
SELECT
  word,
  BIT_OR("a1") AS "a1",
  BIT_OR("a2") AS "a2"
FROM (
  SELECT
    cm.word,
    cm.mask AS "a1",
    CAST(0 AS BIGINT) AS "a2"
  FROM "temp"."main"."wk compose masks's" AS cm
  JOIN "temp"."main"."wk compose classes's" AS c
    ON c.cid = cm.cid
  WHERE
    c.everywhere
  UNION ALL
  SELECT
    cm.word,
    CAST(0 AS BIGINT) AS "a1",
    cm.mask AS "a2"
  FROM "temp"."main"."wk compose masks's" AS cm
  JOIN "temp"."main"."wk compose classes's" AS c
    ON c.cid = cm.cid
  WHERE
    c.everywhere
) AS u
GROUP BY
  word
