-- purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in the attribute's domain order (numeric: ascending; with a taxonomy: left-to-right leaf order; otherwise sorted values), the domain sizes, and an SA id; all rows, or only those of one group of an assignment
-- params: hids, r_gid
-- returns: rid, sid, c1..cd (ranks), n1..nd (domain sizes, repeated), ordered by rid
-- ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed)
WITH
{% for c in qi %}
{{ ('dom' ~ loop.index) | ident }} AS (
    SELECT
        d.v,
        CAST(dense_rank() OVER (ORDER BY {% if kinds[loop.index0] == 'hierarchy' %}leaf.node_id NULLS LAST, {% endif %}d.v) - 1 AS BIGINT) AS r,
        CAST(count(*) OVER () AS BIGINT) AS size
    FROM (SELECT DISTINCT {{ c | ident }} AS v FROM {{ source | table }}) AS d
{% if kinds[loop.index0] == 'hierarchy' %}
    LEFT JOIN ldiv.hierarchy_node AS leaf
        ON leaf.hierarchy_id = list_extract($hids, {{ loop.index }}) AND leaf.height = 0 AND leaf.label = CAST(d.v AS VARCHAR)
{% endif %}
),
{% endfor %}
sa_dom AS (
    SELECT {{ sa | ident }} AS v, CAST(dense_rank() OVER (ORDER BY min(rowid)) AS BIGINT) AS sid
    FROM {{ source | table }}
    GROUP BY ALL
)
SELECT
    CAST(src.rowid AS BIGINT) AS rid,
    s.sid,
{% for c in qi %}
    {{ ('dom' ~ loop.index) | ident }}.r AS {{ ('c' ~ loop.index) | ident }},
{% endfor %}
{% for c in qi %}
    {{ ('dom' ~ loop.index) | ident }}.size AS {{ ('n' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }} AS src
{% if assignment is not none %}
JOIN {{ assignment | table }} AS asg ON asg.rid = src.rowid AND asg.gid = $r_gid
{% endif %}
JOIN sa_dom AS s ON src.{{ sa | ident }} IS NOT DISTINCT FROM s.v
{% for c in qi %}
JOIN {{ ('dom' ~ loop.index) | ident }} ON src.{{ c | ident }} IS NOT DISTINCT FROM {{ ('dom' ~ loop.index) | ident }}.v
{% endfor %}
ORDER BY rid
