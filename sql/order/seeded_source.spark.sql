-- purpose: the source as every algorithm reads it (Spark: a table's row ids are its ldiv_rowid column, written here as the rank of the seeded tie key)
-- params: seed
-- returns: creates target(ldiv_rowid, ldiv_source_rowid, <columns>)
-- ref: the DuckDB template seeded_source.sql
{{ target | create_table }} AS
SELECT CAST(row_number() OVER (ORDER BY {% include "_macros/seeded_key.sql" %}, rowid) - 1 AS BIGINT) AS ldiv_rowid,
       CAST(rowid AS BIGINT) AS ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM {{ source | table }}
