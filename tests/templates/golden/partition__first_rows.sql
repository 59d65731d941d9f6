/* purpose: for the groups to be reported, the lowest row id among their rows and their size, from a histogram built with first_rows */
/* params: gids */
/* returns: gid, first_row, size (one row per group of $gids found in the histogram) */
/* ref: issue 2 item 7 (the worst groups, named by their keys); partition/row_keys.sql reads the keys of these rows, where partition/group_keys.sql hashes every source row to find the groups (a million rows on PostgreSQL: 0.18-0.25 s after the verdict; this and the row lookup take a few milliseconds) */
SELECT
  gid,
  CAST(MIN(first_row) AS BIGINT) AS first_row,
  CAST(SUM(n) AS BIGINT) AS size
FROM "temp"."main"."tpl first_hist"
WHERE
  gid = ANY(
    $gids
  ) AND s = 1
GROUP BY
  gid
