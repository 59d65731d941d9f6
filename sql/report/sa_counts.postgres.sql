-- purpose: the SA distribution of the source against a release (PostgreSQL: a FULL JOIN needs an equality, so NULL is matched by a flag)
-- params: none
-- returns: value (text, NULL for NULL), source_rows, release_rows (ordered by source_rows descending, then value in the bytes' order, COLLATE "C", on every engine)
-- ref: the DuckDB template sa_counts.sql
WITH src AS (
    SELECT CAST({{ sa | ident }} AS VARCHAR) AS value, count(*) AS n
    FROM {{ source | table }}
    GROUP BY 1
), rel AS (
    SELECT CAST({{ release_sa | ident }} AS VARCHAR) AS value, count(*) AS n
    FROM {{ release | table }}
    GROUP BY 1
)
SELECT coalesce(src.value, rel.value) AS value,
       coalesce(src.n, 0) AS source_rows,
       coalesce(rel.n, 0) AS release_rows
FROM src
FULL OUTER JOIN rel
  ON (src.value IS NULL) = (rel.value IS NULL) AND coalesce(src.value, '') = coalesce(rel.value, '')
ORDER BY source_rows DESC, release_rows DESC, coalesce(src.value, rel.value) COLLATE "C" NULLS LAST
