-- purpose: a work table keyed by the row ids of the seeded copy (sql/order/seeded_source.sql), keyed by the source's row ids instead
-- params: none
-- returns: creates target(rid, <columns>)
-- ref: ldiv_db/pipeline/opaque.py (an algorithm's assignment and row labels name the copy's rows; the release names the source's)
{{ target | create_table }} AS
SELECT CAST(s.ldiv_source_rowid AS BIGINT) AS rid{% for c in columns %}, t.{{ c | ident }}{% endfor %}

FROM {{ rows | table }} AS t
JOIN {{ seeded | table }} AS s ON s.rowid = t.rid
