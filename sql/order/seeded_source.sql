-- purpose: the source as every algorithm reads it: all its rows and columns, stored in the order of the seeded tie key, each with the source row id it stands for
-- params: seed
-- returns: creates target(ldiv_source_rowid, <columns>): the copy's own row ids follow the key, so any tie an algorithm breaks by row id or row order is broken by the key; keyed is the identifier ldiv_source_rowid
-- ref: DESIGN §6 (nothing published is a function of the source's row ids or row order); _macros/seeded_key.sql; ldiv_db/pipeline/opaque.py (the rows map back to the source's ids before anything is written)
{{ target | create_table }} AS
WITH rows_in AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

    FROM {{ source | table }}
)
SELECT ldiv_source_rowid{% for c in columns %}, {{ c | ident }}{% endfor %}

FROM rows_in
ORDER BY {% include "_macros/seeded_key.sql" %}, ldiv_source_rowid
