DROP TABLE IF EXISTS "pg_temp"."wk aggregate's";
/* purpose: one pass over the written release: its distinct rows (group id, QI labels, SA values, class) with their counts; the reconciliation, both verifications and the metrics read this instead of the release */
/* params: none */
/* returns: creates target(gid, q1..qd, s1..sk[, k], n): the release's group id (NULL for a release written without its group column), QI, SA (and class) columns as written, under positional names; n = rows */
/* ref: DESIGN §6 (verify on the written table); issue 12 (one pass over the written table feeds every check of the release) */
CREATE TABLE "pg_temp"."wk aggregate's" AS
SELECT
  "group" AS gid,
  "it's" AS "q1",
  "a""b" AS "q2",
  "Zip Code" AS "q3",
  "select" AS "q4",
  "ünï" AS "s1",
  "order" AS k,
  COUNT(*) AS n
FROM "main"."select"
GROUP BY
  1,
  2,
  3,
  4,
  5,
  6,
  7;
ANALYZE "pg_temp"."wk aggregate's"
