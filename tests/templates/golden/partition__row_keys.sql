/* purpose: the key values of source rows given by row id, for reports */
/* params: rids */
/* returns: rid, k1..kd */
/* ref: partition/first_rows.sql (a reported group's lowest row id); issue 2 item 7 (the worst groups) */
SELECT
  CAST(rowid AS BIGINT) AS rid,
  "it's" AS "k1",
  "a""b" AS "k2"
FROM "main"."select"
WHERE
  rowid = ANY(
    $rids
  )
