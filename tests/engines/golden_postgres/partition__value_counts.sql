/* purpose: how often each SA value occurs in the whole table (fr(s)), per SA */
/* params: none */
/* returns: s, v, n */
/* ref: SPEC §5.1 (sensitivity-based thresholds), §2.3 (n_1 = the largest bucket) */
SELECT
  s,
  v,
  CAST(SUM(n) AS BIGINT) AS n
FROM "pg_temp"."tpl it's_hist"
WHERE
  NOT unknown
GROUP BY
  s,
  v
ORDER BY
  s,
  n DESC NULLS LAST,
  v
