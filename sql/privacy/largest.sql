-- purpose: the largest measure of a distribution model over the groups (the largest t, δ or β), with the exact fractions of the groups within a relative 1e-9 of it
-- params: none
-- returns: top (DOUBLE; NULL without groups), nums, dens (the exact candidates; the caller takes their exact maximum)
-- ref: ldiv_db/privacy/baseline.py (check's statistics); the verdict table of privacy/t_*.sql, delta_disclosure.sql or beta_likeness.sql
WITH m AS (
    SELECT max(severity) AS top FROM {{ verdict | table }}
)
SELECT m.top,
       list(v.num) FILTER (WHERE v.num IS NOT NULL AND v.severity >= m.top - abs(m.top) * 1e-9) AS nums,
       list(v.den) FILTER (WHERE v.num IS NOT NULL AND v.severity >= m.top - abs(m.top) * 1e-9) AS dens
FROM {{ verdict | table }} AS v, m
GROUP BY m.top
