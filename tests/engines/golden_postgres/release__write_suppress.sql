/* purpose: write a suppression release (TP Definition 1): each QI labelled, per group, with its value when all rows of the group agree, '*' otherwise; SA as published (NULL where suppressed), the group id; deleted rows left out */
/* params: none */
/* returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values; without the group column as release/write.sql */
/* ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); DESIGN §6 (as release/write.sql, whose statement this is with the */
/*      labels computed in it, on PostgreSQL cheaper than a labels statement and the write). min = max with no NULL is 'all rows */
/*      agree', decided per group by one GROUP BY on integers: a number QI's own values; a text QI's values as codes (the */
/*      rank of the value among the column's distinct values, NULL one of them), the label's text looked up once per group */
/*      (text min / max over every row cost more than the rows' join, sort and store together; decision 0033, Round 6). */
/*      as_text (per QI): its values compared as text, for a column that */
/*      is not a number, whose type PostgreSQL may have no min/max for (boolean, uuid); the label is that text either way */
/*      stars (optional): the algorithm's flags of the groups whose rows disagree on some QI (TP+ and Hilbert); each row is then */
/*      labelled from its own value and its group's flags, with no grouping of the rows (_macros/release_write.sql) */
CREATE TABLE "main"."out it's" AS
WITH "d1" AS (
  SELECT
    v,
    ROW_NUMBER() OVER (ORDER BY v) AS code,
    COALESCE(v, '*') AS label
  FROM (
    SELECT DISTINCT
      CAST("it's" AS TEXT) AS v
    FROM "main"."select"
  ) AS dv
), "d3" AS (
  SELECT
    v,
    ROW_NUMBER() OVER (ORDER BY v) AS code,
    COALESCE(v, '*') AS label
  FROM (
    SELECT DISTINCT
      CAST("Zip Code" AS TEXT) AS v
    FROM "main"."select"
  ) AS dv
), rows_in AS (
  SELECT
    "d1".code AS "c1",
    src."a""b" AS "c2",
    "d3".code AS "c3",
    src."select" AS "c4",
    src."ünï" AS "s1",
    src."order" AS "k1",
    asg.gid,
    asg.sa_suppressed
  FROM "pg_temp"."wk assignment's" AS asg
  JOIN "main"."select" AS src
    ON (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) = asg.rid
  JOIN "d1"
    ON (
      (
        CAST(src."it's" AS TEXT)
      ) IS NULL
    ) = (
      "d1".v IS NULL
    )
    AND COALESCE(CAST((
      CAST(src."it's" AS TEXT)
    ) AS TEXT), '') = COALESCE(CAST("d1".v AS TEXT), '')
  JOIN "d3"
    ON (
      (
        CAST(src."Zip Code" AS TEXT)
      ) IS NULL
    ) = (
      "d3".v IS NULL
    )
    AND COALESCE(CAST((
      CAST(src."Zip Code" AS TEXT)
    ) AS TEXT), '') = COALESCE(CAST("d3".v AS TEXT), '')
  WHERE
    NOT asg.deleted
), codes AS (
  SELECT
    gid,
    CASE WHEN MIN("c1") = MAX("c1") THEN MIN("c1") ELSE 0 END AS "c1",
    CASE
      WHEN MIN("c2") = MAX("c2") AND COUNT("c2") = COUNT(*)
      THEN CAST(MIN("c2") AS TEXT)
      ELSE '*'
    END AS "c2",
    CASE WHEN MIN("c3") = MAX("c3") THEN MIN("c3") ELSE 0 END AS "c3",
    CASE
      WHEN MIN("c4") = MAX("c4") AND COUNT("c4") = COUNT(*)
      THEN CAST(MIN("c4") AS TEXT)
      ELSE '*'
    END AS "c4"
  FROM rows_in
  GROUP BY
    gid
), labels AS (
  SELECT
    codes.gid,
    COALESCE("t1".label, '*') AS "q1",
    codes."c2" AS "q2",
    COALESCE("t3".label, '*') AS "q3",
    codes."c4" AS "q4"
  FROM codes
  LEFT JOIN "d1" AS "t1"
    ON "t1".code = codes."c1"
  LEFT JOIN "d3" AS "t3"
    ON "t3".code = codes."c3"
), lab AS (
  SELECT
    r.gid,
    r.sa_suppressed,
    r."s1",
    r."k1",
    labels."q1",
    labels."q2",
    labels."q3",
    labels."q4"
  FROM rows_in AS r
  JOIN labels
    ON labels.gid = r.gid
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
  (
    (
      COALESCE(pg_temp.ldiv_hash(lab."q1", 32963450154200289), 24335347592574722) # COALESCE(pg_temp.ldiv_hash(lab."q2", 21985202975017819), 3703417712286953) # COALESCE(pg_temp.ldiv_hash(lab."q3", 50260532255638491), 20204658107961554) # COALESCE(pg_temp.ldiv_hash(lab."q4", 36145668429798368), 20597496635259362) # COALESCE(
        pg_temp.ldiv_hash((
          CASE WHEN lab.sa_suppressed THEN NULL ELSE lab."s1" END
        ), 56872094616432545),
        38971618480391516
      ) # COALESCE(pg_temp.ldiv_hash(lab."k1", 32474657790807887), 41610277659040165)
    ) & 9223372036854775807
  );
ANALYZE "main"."out it's"
