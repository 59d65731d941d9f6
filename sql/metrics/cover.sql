-- purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs)
-- params: none
-- returns: creates target(attr, label, value, num)
-- ref: SPEC §0.7 (cover(v) for KL; #leaves for NCP/LM); the labels that are not intervals: _macros/cover_listed.sql; PostgreSQL and Spark
--      read the intervals' values by rank instead of this range join (cover.postgres.sql, cover.spark.sql; decision 0038)
{{ target | create_table }} AS
{% include "_macros/cover_listed.sql" %}
{#- one branch per attribute: with attr = a a filter of both sides, the join's conditions are the two
    inequalities alone, which DuckDB runs as a range join; with the attr equality among them it hashed
    on attr and compared every label with every value of it (quadratic where a QI has a value per row) #}
{%- for a in range(1, n_attrs + 1) %}
UNION ALL
SELECT l.attr, l.label, d.value, d.num
FROM (SELECT * FROM {{ labels | table }} WHERE attr = {{ a }} AND kind = 'interval') AS l
JOIN (SELECT * FROM {{ domain | table }} WHERE attr = {{ a }}) AS d ON d.num >= l.lo AND d.num <= l.hi
{% endfor %}
