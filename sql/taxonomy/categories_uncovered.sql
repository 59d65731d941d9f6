-- purpose: the non-NULL values of an SA column that have no stored sensitivity category: the first 10 in the bytes' order (COLLATE "C": the same values named on every engine), with how many there are in all
-- params: table_name, column_name
-- returns: v, n_rows (rows carrying v), total (distinct uncovered values)
-- ref: SPEC §3.1 (every SA value belongs to one category); DESIGN §6 (name the missing value)
SELECT v, n_rows, total
FROM (
    SELECT CAST(src.{{ column | ident }} AS VARCHAR) AS v, count(*) AS n_rows, count(*) OVER () AS total
    FROM {{ source | table }} AS src
    WHERE src.{{ column | ident }} IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM ldiv.sa_category AS cat
        WHERE cat.table_name = $table_name AND cat.column_name = $column_name
          AND cat.value = CAST(src.{{ column | ident }} AS VARCHAR)
      )
    GROUP BY ALL
)
ORDER BY v COLLATE "C"
LIMIT 10
