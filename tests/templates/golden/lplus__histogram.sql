/* purpose: the compressed histogram l+-Optimize searches on: (leaf vector, SA value, class) -> number of rows */
/* params: none */
/* returns: l1..ld (32-bit node ids), s, k, n ordered by all columns */
/* ref: Liu & Wang §VI-C (statistics of the (generalized QI, SA) histogram); DESIGN §5 (compress first) */
SELECT
  CAST("l1" AS INT) AS "l1",
  CAST("l2" AS INT) AS "l2",
  CAST("l3" AS INT) AS "l3",
  CAST("l4" AS INT) AS "l4",
  s,
  k,
  COUNT(*) AS n
FROM "temp"."main"."wk lplus rows's"
GROUP BY ALL
ORDER BY
  ALL
