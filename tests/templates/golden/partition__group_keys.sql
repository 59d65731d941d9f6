/* purpose: the key values (QI tuple or group column) and size of selected groups, for reports */
/* params: gids */
/* returns: gid, size, k1..kd; with raw_id, gid is that integer column as it stands (a written release's group id) and k1..kd the keys' values of that group */
/* ref: issue 2 item 7 (the worst groups); one scan of the source, only when groups are reported */
WITH t AS (
  SELECT
    CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
    "it's" AS "k1",
    "a""b" AS "k2"
  FROM "main"."select"
)
SELECT
  gid,
  COUNT(*) AS size,
  ANY_VALUE("k1") AS "k1",
  ANY_VALUE("k2") AS "k2"
FROM t
WHERE
  gid = ANY(
    $gids
  )
GROUP BY
  gid
ORDER BY
  gid
