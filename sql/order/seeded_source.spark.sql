-- purpose: the source as every algorithm reads it (Spark: a table's row ids are its ldiv_rowid column, written here as the rank of the seeded tie key)
-- params: seed
-- returns: creates target(ldiv_rowid, ldiv_source_rowid, <columns>); keyed is the identifier ldiv_source_rowid
-- ref: the DuckDB template seeded_source.sql
{{ target | create_table }} AS
WITH rows_in AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

    FROM {{ source | table }}
)
SELECT CAST(row_number() OVER (ORDER BY {% include "_macros/seeded_key.sql" %}, ldiv_source_rowid) - 1 AS BIGINT) AS ldiv_rowid,
       ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM rows_in
