-- purpose: the SA values of the source with their 1-based ids in first-appearance order, which TP's row map and the Hilbert coordinates look up
-- params: seed
-- hints: lookup
-- returns: creates target(v, sid); keyed (seed read only then): first appearance in the order of the seeded tie key of the source's row ids (the order of the seeded copy, sql/order/seeded_source.sql, which TP does not make), else in row id order
-- ref: SPEC §0.6 (SA values in first-appearance order); DESIGN §6 (ties follow the seeded key, never the source's row order); _macros/seeded_key.sql; a table of its own, not a subquery of the statements that look it up: PostgreSQL runs a join whose small side aggregates the source in parallel in its leader process alone, and a join over a small table in its workers
{{ target | create_table }} AS
{% if keyed %}
WITH ldiv_keyed AS (
    SELECT CAST(rowid AS BIGINT) AS ldiv_k, {{ sa | ident }} AS v
    FROM {{ source | table }}
),
{% include "_macros/seeded_key.sql" %}

SELECT v, row_number() OVER (ORDER BY min(ldiv_key)) AS sid
FROM ldiv_keys
GROUP BY v
{% else %}
SELECT {{ sa | ident }} AS v, row_number() OVER (ORDER BY min(rowid)) AS sid
FROM {{ source | table }}
GROUP BY ALL
{% endif %}
