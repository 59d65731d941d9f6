/* purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in row-key order */
/* params: none */
/* returns: rk, arrived, s1..sk (VARCHAR) ordered by rk */
/* ref: SPEC §0.6 (first-appearance order of the primary values follows the row keys); DESIGN §5 */
SELECT
  rk,
  arrived,
  CAST("c6" AS TEXT) AS "s1",
  CAST("c7" AS TEXT) AS "s2"
FROM "pg_temp"."wk dec pool's"
ORDER BY
  rk
