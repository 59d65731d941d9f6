/* purpose: suppression labels per group (TP Definition 1): a QI keeps its value when all rows of the group agree, '*' otherwise */
/* params: none */
/* hints: many-groups */
/* returns: creates target(gid, q1..qd) */
/* ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); min = max with no NULL is 'all rows agree', cheaper than count(DISTINCT) */
/*      as_text (per QI): compare the values as text — a column that is not a number, whose type PostgreSQL may have */
/*      no min/max for (boolean, uuid); the label is that text either way */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk sup's" AS
SELECT
  asg.gid,
  CASE
    WHEN MIN(CAST(src."it's" AS TEXT)) = MAX(CAST(src."it's" AS TEXT))
    AND COUNT(src."it's") = COUNT(*)
    THEN MIN(CAST(src."it's" AS TEXT))
    ELSE '*'
  END AS "q1",
  CASE
    WHEN MIN(src."a""b") = MAX(src."a""b") AND COUNT(src."a""b") = COUNT(*)
    THEN CAST(MIN(src."a""b") AS TEXT)
    ELSE '*'
  END AS "q2",
  CASE
    WHEN MIN(CAST(src."Zip Code" AS TEXT)) = MAX(CAST(src."Zip Code" AS TEXT))
    AND COUNT(src."Zip Code") = COUNT(*)
    THEN MIN(CAST(src."Zip Code" AS TEXT))
    ELSE '*'
  END AS "q3",
  CASE
    WHEN MIN(src."select") = MAX(src."select") AND COUNT(src."select") = COUNT(*)
    THEN CAST(MIN(src."select") AS TEXT)
    ELSE '*'
  END AS "q4"
FROM "temp"."main"."wk assignment's" AS asg
JOIN "main"."select" AS src
  ON src.rowid = asg.rid
WHERE
  NOT asg.deleted
GROUP BY
  asg.gid
