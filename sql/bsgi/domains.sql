-- purpose: the domain of every BSGI code with its row count: attribute 0 = the primary SA's buckets, attribute i = QI i (value = the numeric value of a numeric QI's code, else NULL)
-- params: none
-- returns: attr, code, value, n — ordered by attr, code; a NULL code of a hierarchy QI counts rows whose value is not a leaf of its hierarchy
-- ref: SPEC §2.1 (bucket sizes n_i), §0.7 (the source range max_T − min_T of a numeric QI)
SELECT 0 AS attr, b AS code, CAST(NULL AS DOUBLE) AS value, count(*) AS n
FROM {{ codes | table }}
GROUP BY b
{% for c in qi %}
{% set i = loop.index %}
UNION ALL
SELECT {{ i }} AS attr, {{ ('q' ~ i) | ident }} AS code,
{% if kinds[loop.index0] == 'numeric' %}
       any_value({{ ('v' ~ i) | ident }}) AS value,
{% else %}
       CAST(NULL AS DOUBLE) AS value,
{% endif %}
       count(*) AS n
FROM {{ codes | table }}
GROUP BY {{ ('q' ~ i) | ident }}
{% endfor %}
ORDER BY attr, code
