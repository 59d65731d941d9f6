/* purpose: per release, the number of words of its shared mask (compose/shared.sql) that hold a value: 0 for a release none of whose classes covers every target */
/* params: none */
/* returns: one row: w1..wM */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": compose/membership.sql reads the words of a release without a shared mask only) */
SELECT
  COUNT(*) FILTER(WHERE
    "a1" <> 0) AS "w1",
  COUNT(*) FILTER(WHERE
    "a2" <> 0) AS "w2"
FROM "pg_temp"."wk compose shared's"
