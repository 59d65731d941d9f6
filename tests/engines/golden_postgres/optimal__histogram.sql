/* purpose: the optimal search's compressed table, built once: (leaf node per QI, SA values, class) -> number of rows */
/* params: hids */
/* returns: l1..ld (preorder node id of the row's value among the leaves of the QI's hierarchy; NULL = the value is no leaf), s1..sm (SA values as text), k (class as text, NULL without a class column), n (rows); in no particular order (the coding finds equal leaf vectors by hashing) */
/* ref: DESIGN §5 (compress first); Kohlmayer et al., Flash (2012): a lattice node is judged on grouped data, never on the rows */
SELECT
  nd1.node_id AS "l1",
  nd2.node_id AS "l2",
  nd3.node_id AS "l3",
  nd4.node_id AS "l4",
  CAST(src."ünï" AS TEXT) AS "s1",
  CAST(src."order" AS TEXT) AS k,
  COUNT(*) AS n
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
  AND nd4.label = CAST(src."select" AS TEXT)
GROUP BY
  1,
  2,
  3,
  4,
  5,
  6
