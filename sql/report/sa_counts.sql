-- purpose: the SA distribution of the source against a release: rows per SA value in each (NULL = a suppressed SA value in the release); shows the noise and what suppression removed
-- params: none
-- returns: value (text, NULL for NULL), source_rows, release_rows (ordered by source_rows descending, then value in the bytes' order, COLLATE "C", on every engine)
-- ref: SPEC §4 (Decomposition+ noise), §5 (l+ suppression), TP (deleted rows)
WITH src AS (
    SELECT CAST({{ sa | ident }} AS VARCHAR) AS value, count(*) AS n
    FROM {{ source | table }}
    GROUP BY ALL
), rel AS (
    SELECT CAST({{ release_sa | ident }} AS VARCHAR) AS value, count(*) AS n
    FROM {{ release | table }}
    GROUP BY ALL
)
SELECT coalesce(src.value, rel.value) AS value,
       coalesce(src.n, 0) AS source_rows,
       coalesce(rel.n, 0) AS release_rows
FROM src
FULL OUTER JOIN rel ON src.value IS NOT DISTINCT FROM rel.value
ORDER BY source_rows DESC, release_rows DESC, coalesce(src.value, rel.value) COLLATE "C" NULLS LAST
