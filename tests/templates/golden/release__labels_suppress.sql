/* purpose: suppression labels per group (TP Definition 1): a QI keeps its value when all rows of the group agree, '*' otherwise */
/* params: none */
/* returns: creates target(gid, q1..qd) */
/* ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk sup's" AS
SELECT
  asg.gid,
  CASE
    WHEN COUNT(DISTINCT src."it's") = 1 AND COUNT(src."it's") = COUNT(*)
    THEN CAST(ANY_VALUE(src."it's") AS TEXT)
    ELSE '*'
  END AS "q1",
  CASE
    WHEN COUNT(DISTINCT src."a""b") = 1 AND COUNT(src."a""b") = COUNT(*)
    THEN CAST(ANY_VALUE(src."a""b") AS TEXT)
    ELSE '*'
  END AS "q2",
  CASE
    WHEN COUNT(DISTINCT src."Zip Code") = 1 AND COUNT(src."Zip Code") = COUNT(*)
    THEN CAST(ANY_VALUE(src."Zip Code") AS TEXT)
    ELSE '*'
  END AS "q3",
  CASE
    WHEN COUNT(DISTINCT src."select") = 1 AND COUNT(src."select") = COUNT(*)
    THEN CAST(ANY_VALUE(src."select") AS TEXT)
    ELSE '*'
  END AS "q4"
FROM "temp"."main"."wk assignment's" AS asg
JOIN "main"."select" AS src
  ON src.rowid = asg.rid
WHERE
  NOT asg.deleted
GROUP BY
  asg.gid
