/* purpose: the largest measure of a distribution model over the groups (the largest t, δ or β), with the exact fractions of the groups within a relative 1e-9 of it */
/* params: none */
/* returns: top (DOUBLE; NULL without groups), nums, dens (the exact candidates; the caller takes their exact maximum) */
/* ref: ldiv_db/privacy/baseline.py (check's statistics); the verdict table of privacy/t_*.sql, delta_disclosure.sql or beta_likeness.sql */
WITH m AS (
  SELECT
    MAX(severity) AS top
  FROM "pg_temp"."tpl it's_dist verdict"
)
SELECT
  m.top,
  ARRAY_AGG(v.num) FILTER(WHERE
    NOT v.num IS NULL AND v.severity >= m.top - ABS(m.top) * 1e-9) AS nums,
  ARRAY_AGG(v.den) FILTER(WHERE
    NOT v.num IS NULL AND v.severity >= m.top - ABS(m.top) * 1e-9) AS dens
FROM "pg_temp"."tpl it's_dist verdict" AS v, m
GROUP BY
  m.top
