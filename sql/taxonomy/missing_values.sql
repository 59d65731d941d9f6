-- purpose: distinct non-NULL values of a column (as VARCHAR) that are not leaves of a hierarchy; the first 10 in the bytes' order (COLLATE "C": the same values named on every engine)
-- params: hierarchy_id
-- returns: value, total (total = number of missing values, repeated on every row; no rows = none missing)
-- ref: DESIGN §6 (a hierarchy missing a data value: name the value)
WITH data_values AS (
    SELECT DISTINCT CAST({{ column | ident }} AS VARCHAR) AS value
    FROM {{ source | table }}
    WHERE {{ column | ident }} IS NOT NULL
), missing AS (
    SELECT d.value
    FROM data_values AS d
    WHERE NOT EXISTS (
        SELECT 1
        FROM ldiv.hierarchy_node AS n
        WHERE n.hierarchy_id = $hierarchy_id AND n.height = 0 AND n.label = d.value
    )
)
SELECT value, count(*) OVER () AS total
FROM missing
ORDER BY value COLLATE "C"
LIMIT 10
