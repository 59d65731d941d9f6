/* purpose: the key values (QI tuple or group column) and size of selected groups, for reports */
/* params: gids */
/* returns: gid, size, k1..kd */
/* ref: issue 2 item 7 (the worst groups) */
SELECT
  gid,
  CAST(SUM(n) FILTER(WHERE
    s = 1) AS BIGINT) AS size,
  ANY_VALUE("k1") AS "k1",
  ANY_VALUE("k2") AS "k2"
FROM "temp"."main"."tpl it's_hist"
WHERE
  ARRAY_CONTAINS($gids, gid)
GROUP BY
  gid
ORDER BY
  gid
