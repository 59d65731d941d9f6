/* purpose: local recoding labels per group: categorical QIs by the LCA in their hierarchy, numeric QIs as 'lo-hi' (or the single value), flat QIs as the value or '*' */
/* params: hids */
/* returns: creates target(gid, q1..qd) */
/* ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder intervals: the LCA is the deepest node whose subtree covers the group's leaves). One aggregation over the published rows gives every QI's span per group (a value's preorder node id from a small value → node map); the LCA is then looked up once per distinct span, not per group, in one join for every QI: the deepest */
/*      ancestor of the span's first leaf (its labels at every level, ldiv.hierarchy_level) whose subtree reaches the last, by */
/*      equalities (the nodes whose preorder range holds the span, node_id <= lo AND last_leaf >= hi, are those ancestors, but */
/*      as a join they pair every span with every node of the hierarchy) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk lca's" AS
WITH a AS (
  SELECT
    asg.gid,
    src."it's" AS "c1",
    src."a""b" AS "c2",
    src."Zip Code" AS "c3",
    src."select" AS "c4"
  FROM "temp"."main"."wk assignment's" AS asg
  JOIN "main"."select" AS src
    ON src.rowid = asg.rid
  WHERE
    NOT asg.deleted
), map1 AS (
  SELECT
    label,
    node_id
  FROM ldiv.hierarchy_node
  WHERE
    hierarchy_id = LIST_EXTRACT($hids, 1)
), g AS (
  SELECT
    a.gid,
    MIN(map1.node_id) AS "lo1",
    MAX(map1.node_id) AS "hi1",
    CASE
      WHEN MIN(a."c2") = MAX(a."c2")
      THEN CAST(MIN(a."c2") AS TEXT)
      ELSE CAST(MIN(a."c2") AS TEXT) || '-' || CAST(MAX(a."c2") AS TEXT)
    END AS "q2",
    CASE
      WHEN COUNT(DISTINCT a."c3") = 1
      THEN CAST(ANY_VALUE(a."c3") AS TEXT)
      ELSE '*'
    END AS "q3",
    CASE
      WHEN COUNT(DISTINCT a."c4") = 1
      THEN CAST(ANY_VALUE(a."c4") AS TEXT)
      ELSE '*'
    END AS "q4"
  FROM a
  LEFT JOIN map1
    ON map1.label = CAST(a."c1" AS TEXT)
  GROUP BY
    a.gid
), spans AS (
  SELECT DISTINCT
    1 AS attr,
    LIST_EXTRACT($hids, 1) AS hid,
    "lo1" AS lo,
    "hi1" AS hi
  FROM g
), lca AS (
  SELECT
    s.attr,
    s.lo,
    s.hi,
    ARG_MAX(n.label, n.depth) AS label
  FROM spans AS s
  JOIN ldiv.hierarchy_node AS leaf
    ON leaf.hierarchy_id = s.hid AND leaf.node_id = s.lo
  JOIN ldiv.hierarchy_level AS up
    ON up.hierarchy_id = s.hid AND up.leaf = leaf.label
  JOIN ldiv.hierarchy_node AS n
    ON n.hierarchy_id = s.hid AND n.label = up.label
  WHERE
    n.last_leaf >= s.hi
  GROUP BY
    s.attr,
    s.lo,
    s.hi
)
SELECT
  g.gid,
  "l1".label AS "q1",
  g."q2",
  g."q3",
  g."q4"
FROM g
JOIN lca AS "l1"
  ON "l1".attr = 1 AND "l1".lo = g."lo1" AND "l1".hi = g."hi1"
