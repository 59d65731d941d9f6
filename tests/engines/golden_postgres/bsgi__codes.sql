DROP TABLE IF EXISTS "pg_temp"."wk bsgi codes's";
/* purpose: BSGI's integer codes per source row: the bucket of the primary SA (values numbered by first appearance), codes of the secondary SAs and of the individual (same numbering), and per QI a code the greedy prices: hierarchy = the leaf's preorder node id, numeric = dense rank of the value (with the value itself in v<i>), flat = dense rank of the value */
/* params: hids */
/* returns: creates target(rid, b, s2..sk, q1..qd, v<i> for numeric QIs, ind when an individual column is given); a hierarchy QI whose value is not a leaf gets q<i> NULL */
/* ref: texts (per QI): a character column, ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql); SPEC §2.1 (buckets), §0.6 rule 2 (first-appearance order), §0.4 (preorder ids: the LCA of leaves is the LCA of the smallest and largest id), §0.7 (IL per kind), §2.4 (variants) */
CREATE TABLE "pg_temp"."wk bsgi codes's" AS
WITH src AS (
  SELECT
    (
      CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) AS rid,
    "ünï" AS "a1",
    "order" AS "a2",
    "it's" AS "c1",
    "a""b" AS "c2",
    "Zip Code" AS "c3",
    "select" AS "c4",
    "group" AS ind_value
  FROM "main"."select"
), "fa1" AS (
  SELECT
    "a1" AS v,
    ROW_NUMBER() OVER (ORDER BY MIN(rid)) - 1 AS code
  FROM src
  GROUP BY
    "a1"
), "fa2" AS (
  SELECT
    "a2" AS v,
    ROW_NUMBER() OVER (ORDER BY MIN(rid)) - 1 AS code
  FROM src
  GROUP BY
    "a2"
), individuals AS (
  SELECT
    ind_value AS v,
    ROW_NUMBER() OVER (ORDER BY MIN(rid)) - 1 AS code
  FROM src
  GROUP BY
    ind_value
), "dom2" AS (
  SELECT
    "c2" AS v,
    ROW_NUMBER() OVER (ORDER BY "c2") - 1 AS code
  FROM src
  GROUP BY
    "c2"
), "dom4" AS (
  SELECT
    "c4" AS v,
    ROW_NUMBER() OVER (ORDER BY "c4" COLLATE "C") - 1 AS code
  FROM src
  GROUP BY
    "c4"
), joined AS (
  SELECT
    src.rid,
    "fa1".code AS "b",
    "fa2".code AS "s2",
    "n1".node_id AS "q1",
    "dom2".code AS "q2",
    CAST(src."c2" AS DOUBLE PRECISION) AS "v2",
    "n3".node_id AS "q3",
    "dom4".code AS "q4",
    individuals.code AS ind
  FROM src
  JOIN "fa1"
    ON (
      "fa1".v IS NULL
    ) = (
      src."a1" IS NULL
    )
    AND COALESCE(CAST("fa1".v AS TEXT), '') = COALESCE(CAST(src."a1" AS TEXT), '')
  JOIN "fa2"
    ON (
      "fa2".v IS NULL
    ) = (
      src."a2" IS NULL
    )
    AND COALESCE(CAST("fa2".v AS TEXT), '') = COALESCE(CAST(src."a2" AS TEXT), '')
  LEFT JOIN ldiv.hierarchy_node AS "n1"
    ON "n1".hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[1]
    AND "n1".label = CAST(src."c1" AS TEXT)
  JOIN "dom2"
    ON (
      "dom2".v IS NULL
    ) = (
      src."c2" IS NULL
    )
    AND COALESCE(CAST("dom2".v AS TEXT), '') = COALESCE(CAST(src."c2" AS TEXT), '')
  LEFT JOIN ldiv.hierarchy_node AS "n3"
    ON "n3".hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[3]
    AND "n3".label = CAST(src."c3" AS TEXT)
  JOIN "dom4"
    ON (
      "dom4".v IS NULL
    ) = (
      src."c4" IS NULL
    )
    AND COALESCE(CAST("dom4".v AS TEXT), '') = COALESCE(CAST(src."c4" AS TEXT), '')
  JOIN individuals
    ON (
      individuals.v IS NULL
    ) = (
      src.ind_value IS NULL
    )
    AND COALESCE(CAST(individuals.v AS TEXT), '') = COALESCE(CAST(src.ind_value AS TEXT), '')
)
SELECT
  *
FROM joined;
ANALYZE "pg_temp"."wk bsgi codes's"
