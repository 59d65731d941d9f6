/* purpose: the compressed partition: per group (equal key tuple) and SA, the count of every SA value */
/* params: none */
/* returns: creates target(gid, k1..kd, s, v, n): gid = dense rank of the key tuple, s = SA position (1-based), v = SA value as text (NULL = unknown), n = rows */
/* ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk hist's" AS
WITH cells AS (
  SELECT
    "it's" AS "k1",
    "a""b" AS "k2",
    "Zip Code" AS "k3",
    "select" AS "k4",
    1 AS s,
    COALESCE(CAST("ünï" AS TEXT), '<NULL>') AS v,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY ALL
  UNION ALL
  SELECT
    "it's" AS "k1",
    "a""b" AS "k2",
    "Zip Code" AS "k3",
    "select" AS "k4",
    2 AS s,
    COALESCE(CAST("order" AS TEXT), '<NULL>') AS v,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY ALL
)
SELECT
  DENSE_RANK() OVER (ORDER BY "k1", "k2", "k3", "k4") AS gid,
  *
FROM cells
