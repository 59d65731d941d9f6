-- purpose: one release's distinct QI label vectors (label codes), numbered as in its class masks, each marked when it covers every target
-- params: none
-- returns: creates target(cid, l1..lk, everywhere); everywhere: every label of the vector covers every value its QI takes among the targets (a suppressed row's '*' everywhere, a top-level node), so the class covers every target vector
-- ref: docs/decisions/0005-composition-check.md ("A class that covers every target": such classes stay out of the covering join, their values are one shared mask per release); sizes (shape): the number of target values of each release QI
{{ target | create_table }} AS
WITH wide AS (
    SELECT attr, label
    FROM {{ cover | table }}
    GROUP BY attr, label
    HAVING count(DISTINCT value) = CASE attr{% for n in sizes %} WHEN {{ loop.index }} THEN {{ n }}{% endfor %} END
),
c AS (
    SELECT DISTINCT cid, {{ ls | idents }}
    FROM {{ masks | table }}
)
SELECT c.cid, {{ ls | idents('c') }},
       {% for l in ls %}{{ ('w' ~ loop.index) | ident }}.attr IS NOT NULL{% if not loop.last %} AND {% endif %}{% endfor %} AS everywhere
FROM c
{% for l in ls %}
{% set w = ('w' ~ loop.index) | ident %}
LEFT JOIN wide AS {{ w }} ON {{ w }}.attr = {{ loop.index }} AND {{ w }}.label = c.{{ l | ident }}
{% endfor %}
