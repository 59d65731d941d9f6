DROP TABLE IF EXISTS "pg_temp"."wk compose values's";
/* purpose: one release's classes as the attacker reads them: every distinct QI label vector with the SA values published under it; a class holding an unknown (NULL) SA stands for every value */
/* params: none */
/* returns: creates target(cid, l1..lk, sa); cid numbers the label vectors */
/* ref: docs/decisions/0001-composition-check.md; the class is the label vector (rows of several groups under the same labels are one class to whoever reads only the labels, and the attacker's union takes them all anyway) */
CREATE TABLE "pg_temp"."wk compose values's" AS
WITH pub AS (
  SELECT DISTINCT
    CAST("it's" AS TEXT) AS "l1",
    CAST("a""b" AS TEXT) AS "l2",
    CAST("Zip Code" AS TEXT) AS "l3",
    CAST("select" AS TEXT) AS "l4",
    CAST("ünï" AS TEXT) AS sa
  FROM "main"."rel'ease ""x"""
), cls AS (
  SELECT
    DENSE_RANK() OVER (ORDER BY "l1", "l2", "l3", "l4") AS cid,
    "l1",
    "l2",
    "l3",
    "l4",
    sa
  FROM pub
)
SELECT
  cid,
  "l1",
  "l2",
  "l3",
  "l4",
  sa
FROM cls
WHERE
  NOT sa IS NULL
UNION
SELECT
  cls.cid,
  cls."l1",
  cls."l2",
  cls."l3",
  cls."l4",
  d.sa
FROM cls
CROSS JOIN "pg_temp"."wk compose domain's" AS d
WHERE
  cls.sa IS NULL;
ANALYZE "pg_temp"."wk compose values's"
