/* purpose: (l_1,...,l_k)-diversity of an SA-table: per group the distinct values of every SA (NULL counts as a value), and the groups below l_i */
/* params: ls */
/* returns: groups, violating, min_group, then v1..vk (groups below l_i per SA) */
/* ref: SPEC §4.1 ((l_1,...,l_k)-diversity, distinct form). With stats: the same figures read from the group statistics */
/*      the shared evaluator computed on the same written SA-table with NULL a value (partition/group_stats.sql: one row per */
/*      group and SA, size = the group's rows, n_values = its distinct values), instead of grouping the table a second time */
WITH d AS (
  SELECT
    "group id" AS g,
    COUNT(*) AS n,
    COUNT(DISTINCT "ünï") + MAX(CASE WHEN "ünï" IS NULL THEN 1 ELSE 0 END) AS "d1",
    COUNT(DISTINCT "order") + MAX(CASE WHEN "order" IS NULL THEN 1 ELSE 0 END) AS "d2"
  FROM "main"."rel it's_sa"
  GROUP BY
    "group id"
)
SELECT
  COUNT(*) AS groups,
  COUNT(*) FILTER(WHERE
    "d1" < (
      CAST(%(ls)s AS BIGINT[])
    )[1]
    OR "d2" < (
      CAST(%(ls)s AS BIGINT[])
    )[2]) AS violating,
  MIN(n) AS min_group,
  COUNT(*) FILTER(WHERE
    "d1" < (
      CAST(%(ls)s AS BIGINT[])
    )[1]) AS "v1",
  COUNT(*) FILTER(WHERE
    "d2" < (
      CAST(%(ls)s AS BIGINT[])
    )[2]) AS "v2"
FROM d
