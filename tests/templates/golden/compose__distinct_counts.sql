/* purpose: the number of distinct values of every QI among the targets' vectors, which orders the covering join (fewest first) */
/* params: none */
/* returns: n1..nk (one row) */
/* ref: docs/decisions/0005-composition-check.md (the join matches the vectors' prefixes attribute by attribute: few distinct prefixes first keep the intermediate pairs few) */
SELECT
  COUNT(DISTINCT "v1") AS "n1",
  COUNT(DISTINCT "v2") AS "n2",
  COUNT(DISTINCT "v3") AS "n3",
  COUNT(DISTINCT "v4") AS "n4"
FROM "temp"."main"."wk compose points's"
