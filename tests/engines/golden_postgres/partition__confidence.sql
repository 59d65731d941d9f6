/* purpose: per group, SA and value: count and group size, i.e. the exact confidence n/size */
/* params: none */
/* returns: gid, s, v, n, size */
/* ref: SPEC §0.2 (conf(s|X) = X(s)/|X|), §5.1 */
SELECT
  hs.gid,
  hs.s,
  hs.v,
  hs.n,
  g.size
FROM "pg_temp"."tpl it's_hist" AS hs
JOIN "pg_temp"."tpl it's_stats" AS g
  ON g.gid = hs.gid AND g.s = hs.s
WHERE
  NOT hs.unknown
ORDER BY
  hs.gid,
  hs.s,
  hs.v
