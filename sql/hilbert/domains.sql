-- purpose: the domains of the Hilbert coordinates: per QI i = 1..d every value of the source with its 0-based rank in the attribute's domain order (numeric: ascending; with a taxonomy: left-to-right leaf order; otherwise sorted values) and the domain's size
-- params: hids
-- hints: lookup
-- returns: creates target(i, v1..vd, r, size): on the rows of QI i its value is v_i (the other v columns NULL)
-- ref: texts (per QI): a character column, ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql); SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); hilbert/coords.sql looks the rows' values up here. A table of its own, not subqueries of that query: PostgreSQL runs a join whose small side aggregates the source in parallel in its leader process alone, and a join over a small table in its workers
{{ target | create_table }} AS
{% for c in qi %}
{% set i = loop.index %}
SELECT
    {{ i }} AS i,
{% for other in qi %}
    {% if loop.index == i %}d.v{% else %}NULL{% endif %} AS {{ ('v' ~ loop.index) | ident }},
{% endfor %}
    CAST(dense_rank() OVER (ORDER BY {% if kinds[i - 1] == 'hierarchy' %}leaf.node_id NULLS LAST, {% endif %}d.v{% if texts[i - 1] %} COLLATE "C"{% endif %}) - 1 AS BIGINT) AS r,
    CAST(count(*) OVER () AS BIGINT) AS size
FROM (SELECT DISTINCT {{ c | ident }} AS v FROM {{ source | table }}) AS d
{% if kinds[i - 1] == 'hierarchy' %}
LEFT JOIN ldiv.hierarchy_node AS leaf
    ON leaf.hierarchy_id = list_extract($hids, {{ i }}) AND leaf.height = 0 AND leaf.label = CAST(d.v AS VARCHAR)
{% endif %}
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
