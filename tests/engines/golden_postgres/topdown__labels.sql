DROP TABLE IF EXISTS "pg_temp"."wk td labels 2's";
/* purpose: (l,alpha) top-down labels per row: every QI value replaced by its ancestor at its output node's level, with the node's group id */
/* params: hids */
/* returns: creates target(rid, gid, q1..qd, a1); a NULL QI value (with --null-as-value: its own child of the root, which the hierarchy has no node for) is published as the root */
/* ref: SPEC §3.3 (each node is published at its generalized values); SPEC §0.4 */
CREATE TABLE "pg_temp"."wk td labels 2's" AS
SELECT
  f.rid,
  nd.gid,
  CASE WHEN src."it's" IS NULL THEN rt1.label ELSE lv1.label END AS "q1",
  CASE WHEN src."a""b" IS NULL THEN rt2.label ELSE lv2.label END AS "q2",
  CASE WHEN src."Zip Code" IS NULL THEN rt3.label ELSE lv3.label END AS "q3",
  CASE WHEN src."select" IS NULL THEN rt4.label ELSE lv4.label END AS "q4",
  src."ünï" AS a1
FROM "pg_temp"."wk td final's" AS f
JOIN "pg_temp"."wk td nodes's" AS nd
  ON nd.node = f.node
JOIN "main"."select" AS src
  ON (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) = f.rid
LEFT JOIN ldiv.hierarchy_level AS lv1
  ON lv1.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND lv1.level = nd."lv1"
  AND lv1.leaf = CAST(src."it's" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS rt1
  ON rt1.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND rt1.node_id = 0
LEFT JOIN ldiv.hierarchy_level AS lv2
  ON lv2.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[2]
  AND lv2.level = nd."lv2"
  AND lv2.leaf = CAST(src."a""b" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS rt2
  ON rt2.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[2]
  AND rt2.node_id = 0
LEFT JOIN ldiv.hierarchy_level AS lv3
  ON lv3.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[3]
  AND lv3.level = nd."lv3"
  AND lv3.leaf = CAST(src."Zip Code" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS rt3
  ON rt3.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[3]
  AND rt3.node_id = 0
LEFT JOIN ldiv.hierarchy_level AS lv4
  ON lv4.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[4]
  AND lv4.level = nd."lv4"
  AND lv4.leaf = CAST(src."select" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS rt4
  ON rt4.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[4]
  AND rt4.node_id = 0;
ANALYZE "pg_temp"."wk td labels 2's"
