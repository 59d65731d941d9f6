-- purpose: a work table whose gid column holds the published group ids (sql/order/group_ids.sql); ids not in the map (a stream's earlier groups) stay
-- params: none
-- returns: creates target(<columns>) with gid replaced; is_gid (per column) marks the gid column
-- ref: ldiv_db/pipeline/opaque.py (every table of a release that carries group ids is renumbered by the same map)
{{ target | create_table }} AS
SELECT
{% for c in columns %}
    {% if is_gid[loop.index0] %}CAST(coalesce(m.pub, t.gid) AS BIGINT) AS gid{% else %}t.{{ c | ident }}{% endif %}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ rows | table }} AS t
LEFT JOIN {{ ids | table }} AS m ON m.gid = t.gid
