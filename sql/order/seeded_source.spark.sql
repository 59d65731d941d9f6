-- purpose: the source as every algorithm reads it (Spark: a table's row ids are its ldiv_rowid column, written here as the rank of the seeded tie key)
-- params: seed
-- returns: creates target(ldiv_rowid, ldiv_source_rowid, <columns>)
-- ref: the DuckDB template seeded_source.sql
{{ target | create_table }} AS
WITH ldiv_keyed AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_k{% for c in columns %}, {{ c | ident }}{% endfor %}

    FROM {{ source | table }}
),
{% include "_macros/seeded_key.sql" %}

SELECT CAST(row_number() OVER (ORDER BY ldiv_key, ldiv_k) - 1 AS BIGINT) AS ldiv_rowid,
       ldiv_k AS ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM ldiv_keys
