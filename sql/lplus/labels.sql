-- purpose: l+-Optimize labels: every QI value replaced by its ancestor in the cut (the cut node's label)
-- params: hids
-- returns: creates target(rid, q1..qd)
-- ref: SPEC §5.2 (g(v, Cut)); §0.5 (cut = full-subtree global recoding)
{{ target | create_table }} AS
WITH cut AS (
    SELECT DISTINCT {% for i in range(1, d + 1) %}{{ ('l' ~ i) | ident }}, {{ ('g' ~ i) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}
    FROM {{ cells | table }}
)
SELECT r.rid
{% for i in range(1, d + 1) %}
    , nd{{ i }}.label AS {{ ('q' ~ i) | ident }}
{% endfor %}
FROM {{ rows | table }} AS r
JOIN cut AS c
  ON {% for i in range(1, d + 1) %}c.{{ ('l' ~ i) | ident }} = r.{{ ('l' ~ i) | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}
{% for i in range(1, d + 1) %}
JOIN ldiv.hierarchy_node AS nd{{ i }}
  ON nd{{ i }}.hierarchy_id = list_extract($hids, {{ i }}) AND nd{{ i }}.node_id = c.{{ ('g' ~ i) | ident }}
{% endfor %}
