/* purpose: the rows a stream keeps back, counted by starvation penalty */
/* params: none */
/* returns: starvation, n ordered by starvation */
/* ref: SPEC §4.3 (starvation penalty) */
SELECT
  starvation,
  COUNT(*) AS n
FROM "ldiv"."retained:main.rel it's"
GROUP BY
  starvation
ORDER BY
  starvation
