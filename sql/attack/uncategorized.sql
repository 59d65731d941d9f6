-- purpose: similarity attack: the SA values of the table that have no sensitivity category (the controller refuses them), with their row counts
-- params: none
-- returns: v, n (ordered by v)
-- ref: SPEC §3.1 (every SA value belongs to one category)
SELECT CAST(src.{{ sa | ident }} AS VARCHAR) AS v, count(*) AS n
FROM {{ source | table }} AS src
WHERE NOT EXISTS (
    SELECT 1 FROM {{ categories | table }} AS cat
    WHERE cat.v IS NOT DISTINCT FROM CAST(src.{{ sa | ident }} AS VARCHAR)
)
GROUP BY ALL
ORDER BY v
