-- purpose: the source as every algorithm reads it: its rows (the named columns), stored in the order of the seeded tie key, each with the source row id it stands for
-- params: seed
-- returns: creates target(ldiv_source_rowid, <columns>): the copy's own row ids follow the key, so any tie an algorithm breaks by row id or row order is broken by the key
-- ref: DESIGN §6 (nothing published is a function of the source's row ids or row order); _macros/seeded_key.sql; ldiv_db/pipeline/opaque.py (the rows map back to the source's ids before anything is written)
{{ target | create_table }} AS
WITH ldiv_keyed AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_k{% for c in columns %}, {{ c | ident }}{% endfor %}

    FROM {{ source | table }}
),
{% include "_macros/seeded_key.sql" %}

SELECT ldiv_k AS ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM ldiv_keys
ORDER BY ldiv_key, ldiv_k
