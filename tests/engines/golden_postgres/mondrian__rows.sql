DROP TABLE IF EXISTS "pg_temp"."wk mondrian rows's";
/* purpose: Mondrian's working rows: per row one ordinal per QI (numeric: the value; hierarchy: the leaf's preorder node id; flat: dense rank of the value), and its SA values as text */
/* params: hids */
/* returns: creates target(rid, o1..od DOUBLE, s1..sk VARCHAR); a hierarchy QI whose value is not a leaf gets o<i> NULL */
/* ref: LeFevre, DeWitt, Ramakrishnan, ICDE 2006 (Mondrian; strict partitioning never separates equal QI vectors); SPEC §0.4 (preorder ids order a hierarchy's leaves left to right) */
/*      the QI vector is its ordinals: no vector id per row (numbering the vectors and joining every row back to its */
/*      number cost more than the statement's other work); mondrian/vectors.sql groups by them, the caller numbers the */
/*      vectors and mondrian/assignment.sql joins the rows back to their class on them */
/*      texts (per QI): a character column, whose values are ranked in the bytes' order (COLLATE "C"), the order of every engine, not the database's collation (a PostgreSQL database in an ICU or libc locale orders 'Banana' before 'apple' differently, and its release would differ from DuckDB's) */
CREATE TABLE "pg_temp"."wk mondrian rows's" AS
SELECT
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS rid,
  CAST("n1".node_id AS DOUBLE PRECISION) AS "o1",
  CAST(src."a""b" AS DOUBLE PRECISION) AS "o2",
  CAST("n3".node_id AS DOUBLE PRECISION) AS "o3",
  CAST(DENSE_RANK() OVER (ORDER BY src."select" COLLATE "C") AS DOUBLE PRECISION) AS "o4",
  CAST(src."ünï" AS TEXT) AS "s1",
  CAST(src."order" AS TEXT) AS "s2"
FROM "main"."select" AS src
LEFT JOIN ldiv.hierarchy_node AS "n1"
  ON "n1".hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND "n1".label = CAST(src."it's" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS "n3"
  ON "n3".hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[3]
  AND "n3".label = CAST(src."Zip Code" AS TEXT);
ANALYZE "pg_temp"."wk mondrian rows's"
