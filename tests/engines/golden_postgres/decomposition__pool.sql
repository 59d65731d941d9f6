DROP TABLE IF EXISTS "pg_temp"."wk dec pool 2's";
/* purpose: the rows of one Decomposition+ release: the rows kept back by earlier releases plus the arriving rows, each with its row key and the release it was first eligible for; the stream's columns become positional slots c1..cn */
/* params: offset, release */
/* returns: creates target(rk, arrived, c1..cn) */
/* ref: SPEC §4.3 (kept-back rows join later releases; starvation = release - arrived) */
CREATE TABLE "pg_temp"."wk dec pool 2's" AS
SELECT
  rk,
  arrived,
  "c1",
  "c2",
  "c3",
  "c4",
  "c5",
  "c6",
  "c7"
FROM "ldiv"."retained:main.rel it's"
UNION ALL
SELECT
  CAST((
    CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS BIGINT) + (
    CAST(%(offset)s AS BIGINT)
  ) AS rk,
  CAST((
    CAST(%(release)s AS BIGINT)
  ) AS INT) AS arrived,
  "it's" AS "c1",
  "a""b" AS "c2",
  "Zip Code" AS "c3",
  "select" AS "c4",
  "group" AS "c5",
  "ünï" AS "c6",
  "order" AS "c7"
FROM "main"."select";
ANALYZE "pg_temp"."wk dec pool 2's"
