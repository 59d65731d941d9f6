/* purpose: one release's distinct QI label vectors (label codes), numbered as in its class masks, each marked when it covers every target */
/* params: none */
/* returns: creates target(cid, l1..lk, everywhere); everywhere: every label of the vector covers every value its QI takes among the targets (a suppressed row's '*' everywhere, a top-level node), so the class covers every target vector */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers every target": such classes stay out of the covering join, their values are one shared mask per release); sizes (shape): the number of target values of each release QI */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose classes's" AS
WITH wide AS (
  SELECT
    attr,
    label
  FROM "temp"."main"."wk compose cover's"
  GROUP BY
    attr,
    label
  HAVING
    COUNT(DISTINCT value) = CASE attr WHEN 1 THEN 1 WHEN 2 THEN 1 WHEN 3 THEN 1 WHEN 4 THEN 1 END
), c AS (
  SELECT DISTINCT
    cid,
    "l1",
    "l2",
    "l3",
    "l4"
  FROM "temp"."main"."wk compose masks's"
)
SELECT
  c.cid,
  c."l1",
  c."l2",
  c."l3",
  c."l4",
  NOT "w1".attr IS NULL
  AND NOT "w2".attr IS NULL
  AND NOT "w3".attr IS NULL
  AND NOT "w4".attr IS NULL AS everywhere
FROM c
LEFT JOIN wide AS "w1"
  ON "w1".attr = 1 AND "w1".label = c."l1"
LEFT JOIN wide AS "w2"
  ON "w2".attr = 2 AND "w2".label = c."l2"
LEFT JOIN wide AS "w3"
  ON "w3".attr = 3 AND "w3".label = c."l3"
LEFT JOIN wide AS "w4"
  ON "w4".attr = 4 AND "w4".label = c."l4"
