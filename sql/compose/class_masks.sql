-- purpose: one release's classes as the attacker reads them: every distinct QI label vector (label codes) with the SA values published under it as bit masks; a class holding an unknown (NULL) SA stands for every value
-- params: none
-- returns: creates target(cid, l1..lk, word, mask); cid numbers the label vectors
-- ref: docs/decisions/0005-composition-check.md; the known and the unknown SA values are two joins (one join on `d.sa = cls.sa OR cls.sa IS NULL` compares every class row with every value); the class is the label vector (rows of several groups under the same labels are one class to whoever reads only the labels, and the attacker's union takes them all anyway)
{{ target | create_table }} AS
WITH pub AS (
    SELECT DISTINCT {% for c in rqi %}CAST({{ c | ident }} AS VARCHAR) AS {{ ('t' ~ loop.index) | ident }}, {% endfor %}CAST({{ sa | ident }} AS VARCHAR) AS sa
    FROM {{ release | table }}
),
coded AS (
    SELECT {% for c in rqi %}{{ ('b' ~ loop.index) | ident }}.code AS {{ ls[loop.index0] | ident }}, {% endfor %}pub.sa
    FROM pub
{% for c in rqi %}
{% set b = ('b' ~ loop.index) | ident %}
    JOIN {{ labels | table }} AS {{ b }} ON {{ b }}.attr = {{ loop.index }} AND {{ b }}.label = pub.{{ ('t' ~ loop.index) | ident }}
{% endfor %}
),
cls AS (
    SELECT dense_rank() OVER (ORDER BY {{ ls | idents }}) AS cid, {{ ls | idents }}, sa FROM coded
)
SELECT cid, {{ ls | idents }}, word, bit_or(bit) AS mask
FROM (
    SELECT cls.cid, {{ ls | idents('cls') }}, d.word, d.bit
    FROM cls
    JOIN {{ domain | table }} AS d ON d.sa = cls.sa
    UNION ALL
    SELECT cls.cid, {{ ls | idents('cls') }}, d.word, d.bit
    FROM cls
    CROSS JOIN {{ domain | table }} AS d
    WHERE cls.sa IS NULL
) AS b
GROUP BY cid, {{ ls | idents }}, word
