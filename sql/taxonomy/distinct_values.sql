-- purpose: distinct non-NULL values of a numeric column with their VARCHAR rendering (the leaves of an interval hierarchy)
-- params: none
-- returns: label, value
-- ref: SPEC §0.4 (numeric attributes: ranges as internal nodes)
SELECT DISTINCT CAST({{ column | ident }} AS VARCHAR) AS label, {{ column | ident }} AS value
FROM {{ source | table }}
WHERE {{ column | ident }} IS NOT NULL
ORDER BY value, label
