DROP TABLE IF EXISTS "pg_temp"."wk lca's";
/* purpose: local recoding labels per group: categorical QIs by the LCA in their hierarchy, numeric QIs as 'lo-hi' (or the single value), flat QIs as the value or '*' */
/* params: hids */
/* returns: creates target(gid, q1..qd) */
/* ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder intervals: the LCA is the deepest node whose subtree covers the group's leaves) */
CREATE TABLE "pg_temp"."wk lca's" AS
WITH a AS (
  SELECT
    asg.gid,
    src."it's" AS "c1",
    src."a""b" AS "c2",
    src."Zip Code" AS "c3",
    src."select" AS "c4"
  FROM "pg_temp"."wk assignment's" AS asg
  JOIN "main"."select" AS src
    ON (
      CAST((
        (
          CAST(CAST(src.ctid AS TEXT) AS POINT)
        )[0]
      ) AS BIGINT) * 65536 + CAST((
        (
          CAST(CAST(src.ctid AS TEXT) AS POINT)
        )[1]
      ) AS BIGINT) - 1
    ) = asg.rid
  WHERE
    NOT asg.deleted
), span1 AS (
  SELECT
    a.gid,
    MIN(n.node_id) AS lo,
    MAX(n.node_id) AS hi
  FROM a
  JOIN ldiv.hierarchy_node AS n
    ON n.hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[1]
    AND n.label = CAST(a."c1" AS TEXT)
  GROUP BY
    a.gid
), lab1 AS (
  SELECT
    s.gid,
    (
      ARRAY_AGG(n.label ORDER BY n.depth DESC)
    )[1] AS label
  FROM span1 AS s
  JOIN ldiv.hierarchy_node AS n
    ON n.hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[1]
    AND n.node_id <= s.lo
    AND n.last_leaf >= s.hi
  GROUP BY
    s.gid
), lab2 AS (
  SELECT
    gid,
    CASE
      WHEN MIN("c2") = MAX("c2")
      THEN CAST(MIN("c2") AS TEXT)
      ELSE CAST(MIN("c2") AS TEXT) || '-' || CAST(MAX("c2") AS TEXT)
    END AS label
  FROM a
  GROUP BY
    gid
), lab3 AS (
  SELECT
    gid,
    CASE
      WHEN COUNT(DISTINCT "c3") = 1
      THEN CAST((
        ARRAY_AGG("c3")
      )[1] AS TEXT)
      ELSE '*'
    END AS label
  FROM a
  GROUP BY
    gid
), lab4 AS (
  SELECT
    gid,
    CASE
      WHEN COUNT(DISTINCT "c4") = 1
      THEN CAST((
        ARRAY_AGG("c4")
      )[1] AS TEXT)
      ELSE '*'
    END AS label
  FROM a
  GROUP BY
    gid
), groups AS (
  SELECT DISTINCT
    gid
  FROM a
)
SELECT
  groups.gid,
  lab1.label AS "q1",
  lab2.label AS "q2",
  lab3.label AS "q3",
  lab4.label AS "q4"
FROM groups
JOIN lab1
  ON lab1.gid = groups.gid
JOIN lab2
  ON lab2.gid = groups.gid
JOIN lab3
  ON lab3.gid = groups.gid
JOIN lab4
  ON lab4.gid = groups.gid;
ANALYZE "pg_temp"."wk lca's"
