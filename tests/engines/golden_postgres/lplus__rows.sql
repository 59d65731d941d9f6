DROP TABLE IF EXISTS "pg_temp"."wk lplus rows 2's";
/* purpose: l+-Optimize rows: each source row's leaf node per QI (preorder ids of its hierarchy), its SA value and class as text */
/* params: hids */
/* returns: creates target(rid, l1..ld, s, k); a NULL l_i marks a value missing from the hierarchy (the caller names it) */
/* ref: SPEC §5.2 (every QI needs a taxonomy); §0.4 (preorder node ids) */
CREATE TABLE "pg_temp"."wk lplus rows 2's" AS
SELECT
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS rid,
  nd1.node_id AS "l1",
  nd2.node_id AS "l2",
  nd3.node_id AS "l3",
  nd4.node_id AS "l4",
  CAST(src."ünï" AS TEXT) AS s,
  CAST(src."order" AS TEXT) AS k
FROM "main"."select" AS src
LEFT JOIN ldiv.hierarchy_node AS nd1
  ON nd1.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND nd1.height = 0
  AND nd1.label = CAST(src."it's" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS nd2
  ON nd2.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[2]
  AND nd2.height = 0
  AND nd2.label = CAST(src."a""b" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS nd3
  ON nd3.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[3]
  AND nd3.height = 0
  AND nd3.label = CAST(src."Zip Code" AS TEXT)
LEFT JOIN ldiv.hierarchy_node AS nd4
  ON nd4.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[4]
  AND nd4.height = 0
  AND nd4.label = CAST(src."select" AS TEXT);
ANALYZE "pg_temp"."wk lplus rows 2's"
