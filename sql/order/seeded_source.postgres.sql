-- purpose: the source as every algorithm reads it (PostgreSQL: a row id is its physical address, page * 65536 + tuple - 1, so the key is taken of the row's position in that order, 0..n-1: the row ids DuckDB and Spark give a table loaded alike, hence the same key and the same release)
-- params: seed
-- returns: creates target(ldiv_source_rowid, <columns>) in the key's order
-- ref: the DuckDB template seeded_source.sql
{{ target | create_table }} AS
WITH ldiv_keyed AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_source_rowid,
           CAST(row_number() OVER (ORDER BY rowid) - 1 AS BIGINT) AS ldiv_k{% for c in columns %}, {{ c | ident }}{% endfor %}

    FROM {{ source | table }}
),
{% include "_macros/seeded_key.sql" %}

SELECT ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM ldiv_keys
ORDER BY ldiv_key, ldiv_k
