-- purpose: the exact spellings of every SA of a Decomposition+ pool, numbered: what decomposition/pool_rows.sql's codes stand for (an engine with a byte-order collation)
-- params: none
-- returns: creates target(s, v, code): s = the SA's position (1-based), v = one spelling as text (NULL is one), code = its 0-based number among the SA's spellings in byte order
-- ref: SPEC §0.6 (the values as the pool's rows carry them); COLLATE C: a case-insensitive column's case variants are different spellings here, as they are for the text pool_rows.sql returns otherwise (Python codes the spellings, not the column's equality)
{{ target | create_table }} AS
{% for s in slots %}
SELECT {{ loop.index }} AS s, v, CAST(row_number() OVER (ORDER BY v COLLATE C NULLS FIRST) - 1 AS INTEGER) AS code
FROM (SELECT DISTINCT CAST({{ s | ident }} AS VARCHAR) COLLATE C AS v FROM {{ pool | table }}) AS ldiv_d
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
