DROP TABLE IF EXISTS "pg_temp"."wk lplus labels's";
/* purpose: l+-Optimize labels: every QI value replaced by its ancestor in the cut (the cut node's label) */
/* params: hids */
/* returns: creates target(rid, q1..qd) */
/* ref: SPEC §5.2 (g(v, Cut)); §0.5 (cut = full-subtree global recoding) */
CREATE TABLE "pg_temp"."wk lplus labels's" AS
WITH cut AS (
  SELECT DISTINCT
    "l1",
    "g1",
    "l2",
    "g2",
    "l3",
    "g3",
    "l4",
    "g4"
  FROM "pg_temp"."wk lplus cells's"
)
SELECT
  r.rid,
  nd1.label AS "q1",
  nd2.label AS "q2",
  nd3.label AS "q3",
  nd4.label AS "q4"
FROM "pg_temp"."wk lplus rows's" AS r
JOIN cut AS c
  ON c."l1" = r."l1" AND c."l2" = r."l2" AND c."l3" = r."l3" AND c."l4" = r."l4"
JOIN ldiv.hierarchy_node AS nd1
  ON nd1.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND nd1.node_id = c."g1"
JOIN ldiv.hierarchy_node AS nd2
  ON nd2.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[2]
  AND nd2.node_id = c."g2"
JOIN ldiv.hierarchy_node AS nd3
  ON nd3.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[3]
  AND nd3.node_id = c."g3"
JOIN ldiv.hierarchy_node AS nd4
  ON nd4.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[4]
  AND nd4.node_id = c."g4";
ANALYZE "pg_temp"."wk lplus labels's"
