/* purpose: how many groups and rows violate the model, and which groups are the worst */
/* params: worst */
/* returns: violating_groups, violating_rows, worst_gids (up to $worst gids, worst first) */
/* ref: issue 2 item 7 */
SELECT
  COUNT(*) FILTER(WHERE
    NOT v.ok) AS violating_groups,
  CAST(COALESCE(SUM(g.size) FILTER(WHERE
    NOT v.ok), 0) AS BIGINT) AS violating_rows,
  COALESCE(
    ARRAY_AGG(v.gid ORDER BY v.severity DESC, g.size DESC, v.gid) FILTER(WHERE
      NOT v.ok),
    []
  )[1:$worst] AS worst_gids
FROM "temp"."main"."tpl it's_verdict" AS v
JOIN "temp"."main"."tpl it's_stats" AS g
  ON g.gid = v.gid AND g.s = 1
