/* purpose: one release's classes as the attacker reads them: every distinct QI label vector (label codes) with the SA values published under it as bit masks; a class holding an unknown (NULL) SA stands for every value */
/* params: none */
/* returns: creates target(cid, l1..lk, word, mask); cid numbers the label vectors */
/* ref: docs/decisions/0005-composition-check.md; the known and the unknown SA values are two joins (one join on `d.sa = cls.sa OR cls.sa IS NULL` compares every class row with every value); the class is the label vector (rows of several groups under the same labels are one class to whoever reads only the labels, and the attacker's union takes them all anyway) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose masks's" AS
WITH pub AS (
  SELECT DISTINCT
    CAST("it's" AS TEXT) AS "t1",
    CAST("a""b" AS TEXT) AS "t2",
    CAST("Zip Code" AS TEXT) AS "t3",
    CAST("select" AS TEXT) AS "t4",
    CAST("ünï" AS TEXT) AS sa
  FROM "main"."rel'ease ""x"""
), coded AS (
  SELECT
    "b1".code AS "l1",
    "b2".code AS "l2",
    "b3".code AS "l3",
    "b4".code AS "l4",
    pub.sa
  FROM pub
  JOIN "temp"."main"."wk metrics labels's" AS "b1"
    ON "b1".attr = 1 AND "b1".label = pub."t1"
  JOIN "temp"."main"."wk metrics labels's" AS "b2"
    ON "b2".attr = 2 AND "b2".label = pub."t2"
  JOIN "temp"."main"."wk metrics labels's" AS "b3"
    ON "b3".attr = 3 AND "b3".label = pub."t3"
  JOIN "temp"."main"."wk metrics labels's" AS "b4"
    ON "b4".attr = 4 AND "b4".label = pub."t4"
), cls AS (
  SELECT
    DENSE_RANK() OVER (ORDER BY "l1", "l2", "l3", "l4") AS cid,
    "l1",
    "l2",
    "l3",
    "l4",
    sa
  FROM coded
)
SELECT
  cid,
  "l1",
  "l2",
  "l3",
  "l4",
  word,
  BIT_OR(bit) AS mask
FROM (
  SELECT
    cls.cid,
    cls."l1",
    cls."l2",
    cls."l3",
    cls."l4",
    d.word,
    d.bit
  FROM cls
  JOIN "temp"."main"."wk compose domain's" AS d
    ON d.sa = cls.sa
  UNION ALL
  SELECT
    cls.cid,
    cls."l1",
    cls."l2",
    cls."l3",
    cls."l4",
    d.word,
    d.bit
  FROM cls
  CROSS JOIN "temp"."main"."wk compose domain's" AS d
  WHERE
    cls.sa IS NULL
) AS b
GROUP BY
  cid,
  "l1",
  "l2",
  "l3",
  "l4",
  word
