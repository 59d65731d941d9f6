/* purpose: the pillars of every group: the SA values whose count equals the pillar height h(G) */
/* params: none */
/* returns: gid, s, v, n */
/* ref: SPEC §0.1 (pillars(X) = {v : X(v) = h(X) > 0}); TP §1.3 */
SELECT
  hs.gid,
  hs.s,
  hs.v,
  hs.n
FROM "pg_temp"."tpl it's_hist" AS hs
JOIN "pg_temp"."tpl it's_stats" AS g
  ON g.gid = hs.gid AND g.s = hs.s
WHERE
  NOT hs.unknown AND hs.n = g.h
ORDER BY
  hs.gid,
  hs.s,
  hs.v
