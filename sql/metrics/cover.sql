-- purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs)
-- params: none
-- returns: creates target(attr, label, value, num)
-- ref: SPEC §0.7 (cover(v) for KL; #leaves for NCP/LM); a node's leaves are read from ldiv.hierarchy_level (the leaves that carry its label at some level: an equality join, where the preorder range node_id..last_leaf would be a range join)
{{ target | create_table }} AS
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = l.label
WHERE l.kind = 'leaf'
UNION ALL
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr
WHERE l.kind = 'star'
{#- one branch per attribute: with attr = a a filter of both sides, the join's conditions are the two
    inequalities alone, which DuckDB runs as a range join; with the attr equality among them it hashed
    on attr and compared every label with every value of it (quadratic where a QI has a value per row) #}
{%- for a in range(1, n_attrs + 1) %}
UNION ALL
SELECT l.attr, l.label, d.value, d.num
FROM (SELECT * FROM {{ labels | table }} WHERE attr = {{ a }} AND kind = 'interval') AS l
JOIN (SELECT * FROM {{ domain | table }} WHERE attr = {{ a }}) AS d ON d.num >= l.lo AND d.num <= l.hi
{% endfor %}
UNION ALL
SELECT DISTINCT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN ldiv.hierarchy_level AS hl ON hl.hierarchy_id = l.hierarchy_id AND hl.label = l.label
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = hl.leaf
WHERE l.kind = 'node'
