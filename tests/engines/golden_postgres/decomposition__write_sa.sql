/* purpose: write the SA-table: per SA-group, each SA column's multiset after noise (groups of earlier releases copied unless they grew) */
/* params: none */
/* returns: creates output(<group column>, <SA columns as VARCHAR>) ordered by group and values */
/* ref: SPEC §4.1 (SA-table), §4.4 (noise keeps the group size) */
CREATE TABLE "main"."out it's_sa" AS
SELECT
  *
FROM (
  SELECT
    *
  FROM "main"."rel it's_sa"
  WHERE
    NOT "group id" IN (
      SELECT
        gid
      FROM "pg_temp"."wk dec sa rows's"
    )
  UNION ALL
  SELECT
    gid AS "group id",
    "s1" AS "ünï",
    "s2" AS "order"
  FROM "pg_temp"."wk dec sa rows's"
) AS ldiv_sq0
ORDER BY
  "group id",
  "ünï",
  "order";
ANALYZE "main"."out it's_sa"
