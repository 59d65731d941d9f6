/* purpose: the domains of the Hilbert coordinates: per QI i = 1..d every value of the source with its 0-based rank in the attribute's domain order (numeric: ascending; with a taxonomy: left-to-right leaf order; otherwise sorted values) and the domain's size */
/* params: hids */
/* hints: lookup */
/* returns: creates target(i, v1..vd, r, size): on the rows of QI i its value is v_i (the other v columns NULL) */
/* ref: texts (per QI): a character column, ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql); SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); hilbert/coords.sql looks the rows' values up here. A table of its own, not subqueries of that query: PostgreSQL runs a join whose small side aggregates the source in parallel in its leader process alone, and a join over a small table in its workers */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk hilbert domains 2's" AS
SELECT
  1 AS i,
  d.v AS "v1",
  NULL AS "v2",
  NULL AS "v3",
  NULL AS "v4",
  CAST(DENSE_RANK() OVER (ORDER BY leaf.node_id, d.v COLLATE "C") - 1 AS BIGINT) AS r,
  CAST(COUNT(*) OVER () AS BIGINT) AS size
FROM (
  SELECT DISTINCT
    "it's" AS v
  FROM "main"."select"
) AS d
LEFT JOIN ldiv.hierarchy_node AS leaf
  ON leaf.hierarchy_id = LIST_EXTRACT($hids, 1)
  AND leaf.height = 0
  AND leaf.label = CAST(d.v AS TEXT)
UNION ALL
SELECT
  2 AS i,
  NULL AS "v1",
  d.v AS "v2",
  NULL AS "v3",
  NULL AS "v4",
  CAST(DENSE_RANK() OVER (ORDER BY d.v) - 1 AS BIGINT) AS r,
  CAST(COUNT(*) OVER () AS BIGINT) AS size
FROM (
  SELECT DISTINCT
    "a""b" AS v
  FROM "main"."select"
) AS d
UNION ALL
SELECT
  3 AS i,
  NULL AS "v1",
  NULL AS "v2",
  d.v AS "v3",
  NULL AS "v4",
  CAST(DENSE_RANK() OVER (ORDER BY leaf.node_id, d.v COLLATE "C") - 1 AS BIGINT) AS r,
  CAST(COUNT(*) OVER () AS BIGINT) AS size
FROM (
  SELECT DISTINCT
    "Zip Code" AS v
  FROM "main"."select"
) AS d
LEFT JOIN ldiv.hierarchy_node AS leaf
  ON leaf.hierarchy_id = LIST_EXTRACT($hids, 3)
  AND leaf.height = 0
  AND leaf.label = CAST(d.v AS TEXT)
UNION ALL
SELECT
  4 AS i,
  NULL AS "v1",
  NULL AS "v2",
  NULL AS "v3",
  d.v AS "v4",
  CAST(DENSE_RANK() OVER (ORDER BY d.v COLLATE "C") - 1 AS BIGINT) AS r,
  CAST(COUNT(*) OVER () AS BIGINT) AS size
FROM (
  SELECT DISTINCT
    "select" AS v
  FROM "main"."select"
) AS d
