-- purpose: the size of each QI's domain of Hilbert coordinates (hilbert/domains.sql)
-- params: none
-- returns: i, size; one row per QI, in QI order
-- ref: SPEC §1.12(a) (the curve's grid covers the attribute's domain in T); hilbert/coords.sql's ranks are below these sizes
SELECT i, CAST(max(size) AS BIGINT) AS size
FROM {{ domains | table }}
GROUP BY i
ORDER BY i
