/* purpose: (l,alpha) top-down labels per row: every QI value replaced by its ancestor at its output node's level, with the node's group id */
/* params: hids */
/* returns: creates target(rid, gid, q1..qd, a1) */
/* ref: SPEC §3.3 (each node is published at its generalized values); SPEC §0.4 */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk td labels 2's" AS
SELECT
  f.rid,
  nd.gid,
  lv1.label AS "q1",
  lv2.label AS "q2",
  lv3.label AS "q3",
  lv4.label AS "q4",
  src."ünï" AS a1
FROM "temp"."main"."wk td final's" AS f
JOIN "temp"."main"."wk td nodes's" AS nd
  ON nd.node = f.node
JOIN "main"."select" AS src
  ON src.rowid = f.rid
LEFT JOIN ldiv.hierarchy_level AS lv1
  ON lv1.hierarchy_id = LIST_EXTRACT($hids, 1)
  AND lv1.level = nd."lv1"
  AND lv1.leaf = CAST(src."it's" AS TEXT)
LEFT JOIN ldiv.hierarchy_level AS lv2
  ON lv2.hierarchy_id = LIST_EXTRACT($hids, 2)
  AND lv2.level = nd."lv2"
  AND lv2.leaf = CAST(src."a""b" AS TEXT)
LEFT JOIN ldiv.hierarchy_level AS lv3
  ON lv3.hierarchy_id = LIST_EXTRACT($hids, 3)
  AND lv3.level = nd."lv3"
  AND lv3.leaf = CAST(src."Zip Code" AS TEXT)
LEFT JOIN ldiv.hierarchy_level AS lv4
  ON lv4.hierarchy_id = LIST_EXTRACT($hids, 4)
  AND lv4.level = nd."lv4"
  AND lv4.leaf = CAST(src."select" AS TEXT)
