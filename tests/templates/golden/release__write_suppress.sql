/* purpose: write a suppression release (TP Definition 1): each QI labelled, per group, with its value when all rows of the group agree, '*' otherwise; SA as published (NULL where suppressed), the group id; deleted rows left out */
/* params: none */
/* returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values; without the group column as release/write.sql */
/* ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); DESIGN §6 (as release/write.sql, whose statement this is with the */
/*      labels computed in it). min = max with no NULL is 'all rows agree'; the labels are window aggregates over each group's rows, */
/*      which the ORDER BY sorts by group anyway (on PostgreSQL cheaper than a labels statement and the write). */
/*      as_text (per QI): its values compared as text, for a column that */
/*      is not a number, whose type PostgreSQL may have no min/max for (boolean, uuid); the label is that text either way */
CREATE TABLE "main"."out it's" AS
WITH rows_in AS (
  SELECT
    CAST(src."it's" AS TEXT) AS "v1",
    src."a""b" AS "v2",
    CAST(src."Zip Code" AS TEXT) AS "v3",
    src."select" AS "v4",
    src."ünï" AS "s1",
    src."order" AS "k1",
    asg.gid,
    asg.sa_suppressed
  FROM "temp"."main"."wk assignment's" AS asg
  JOIN "main"."select" AS src
    ON src.rowid = asg.rid
  WHERE
    NOT asg.deleted
), lab AS (
  SELECT
    gid,
    sa_suppressed,
    "s1",
    "k1",
    CASE
      WHEN MIN("v1") OVER w = MAX("v1") OVER w AND COUNT("v1") OVER w = COUNT(*) OVER w
      THEN CAST(MIN("v1") OVER w AS TEXT)
      ELSE '*'
    END AS "q1",
    CASE
      WHEN MIN("v2") OVER w = MAX("v2") OVER w AND COUNT("v2") OVER w = COUNT(*) OVER w
      THEN CAST(MIN("v2") OVER w AS TEXT)
      ELSE '*'
    END AS "q2",
    CASE
      WHEN MIN("v3") OVER w = MAX("v3") OVER w AND COUNT("v3") OVER w = COUNT(*) OVER w
      THEN CAST(MIN("v3") OVER w AS TEXT)
      ELSE '*'
    END AS "q3",
    CASE
      WHEN MIN("v4") OVER w = MAX("v4") OVER w AND COUNT("v4") OVER w = COUNT(*) OVER w
      THEN CAST(MIN("v4") OVER w AS TEXT)
      ELSE '*'
    END AS "q4"
  FROM rows_in
  WINDOW w AS (PARTITION BY gid)
)
SELECT
  lab."q1" AS "it's",
  lab."q2" AS "a""b",
  lab."q3" AS "Zip Code",
  lab."q4" AS "select",
  CASE WHEN lab.sa_suppressed THEN NULL ELSE lab."s1" END AS "ünï",
  lab."k1" AS "order",
  lab.gid AS "group id"
FROM lab
ORDER BY
  lab.gid,
  HASH(
    lab."q1",
    lab."q2",
    lab."q3",
    lab."q4",
    CASE WHEN lab.sa_suppressed THEN NULL ELSE lab."s1" END,
    lab."k1",
    'ldiv-order'
  )
