DROP TABLE IF EXISTS "pg_temp"."wk hist's";
/* purpose: the compressed partition of a written release for its verification, from the release aggregate: per group (equal group id, or equal QI label vector) and SA, the count of every SA value */
/* params: none */
/* returns: creates target(gid, gid2, s, v, unknown, n) as partition/histogram.sql builds it with exact ids: gid = gid2 = the dense rank of the group id (or of the label vector q1..qd when by_labels) */
/* ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels as an attacker groups them); same ranks as partition/group_keys.sql with exact ids */
CREATE TABLE "pg_temp"."wk hist's" AS
WITH r AS (
  SELECT
    *,
    DENSE_RANK() OVER (ORDER BY "q1", "q2", "q3", "q4") AS rank_id
  FROM "pg_temp"."wk aggregate's"
)
SELECT
  rank_id AS gid,
  rank_id AS gid2,
  1 AS s,
  CAST("s1" AS TEXT) AS v,
  "s1" IS NULL AS unknown,
  CAST(SUM(n) AS BIGINT) AS n
FROM r
GROUP BY
  1,
  2,
  3,
  4,
  5;
ANALYZE "pg_temp"."wk hist's"
