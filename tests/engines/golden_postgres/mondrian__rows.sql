DROP TABLE IF EXISTS "pg_temp"."wk mondrian rows's";
/* purpose: Mondrian's working rows: per row the id of its QI vector and one ordinal per QI (numeric: the value; hierarchy: the leaf's preorder node id; flat: dense rank of the value), and its SA values as text */
/* params: hids */
/* returns: creates target(rid, vid, o1..od DOUBLE, s1..sk VARCHAR); vid numbers the distinct QI vectors 0..; a hierarchy QI whose value is not a leaf gets o<i> NULL */
/* ref: LeFevre, DeWitt, Ramakrishnan, ICDE 2006 (Mondrian; strict partitioning never separates equal QI vectors); SPEC §0.4 (preorder ids order a hierarchy's leaves left to right) */
/*      vid: the distinct vectors are numbered (as a window over every row would number them), then joined back on a */
/*      NULL-safe key that every engine can hash (a non-leaf's NULL ordinal is one more value): an aggregate and a join cost */
/*      less than a sort of every row (bench/results/history.md, "One million rows", Round 2) */
/*      texts (per QI): a character column, whose values are ranked in the bytes' order (COLLATE "C"), the order of every engine, not the database's collation (a PostgreSQL database in an ICU or libc locale orders 'Banana' before 'apple' differently, and its release would differ from DuckDB's) */
CREATE TABLE "pg_temp"."wk mondrian rows's" AS
WITH ordinals AS (
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
    AND "n3".label = CAST(src."Zip Code" AS TEXT)
), vectors AS (
  SELECT
    "o1",
    "o2",
    "o3",
    "o4",
    DENSE_RANK() OVER (ORDER BY "o1", "o2", "o3", "o4") - 1 AS vid
  FROM ordinals
  GROUP BY
    "o1",
    "o2",
    "o3",
    "o4"
)
SELECT
  o.rid,
  v.vid,
  o."o1",
  o."o2",
  o."o3",
  o."o4",
  o."s1",
  o."s2"
FROM ordinals AS o
JOIN vectors AS v
  ON COALESCE(v."o1", 0) = COALESCE(o."o1", 0)
  AND (
    v."o1" IS NULL
  ) = (
    o."o1" IS NULL
  )
  AND COALESCE(v."o2", 0) = COALESCE(o."o2", 0)
  AND (
    v."o2" IS NULL
  ) = (
    o."o2" IS NULL
  )
  AND COALESCE(v."o3", 0) = COALESCE(o."o3", 0)
  AND (
    v."o3" IS NULL
  ) = (
    o."o3" IS NULL
  )
  AND COALESCE(v."o4", 0) = COALESCE(o."o4", 0)
  AND (
    v."o4" IS NULL
  ) = (
    o."o4" IS NULL
  );
ANALYZE "pg_temp"."wk mondrian rows's"
