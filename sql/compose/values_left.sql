-- purpose: how many SA values the releases leave each target: the intersection over the releases holding its row of each release's union, for all of them and for every pair
-- params: none
-- returns: creates target(pid, present, n, left_all, left1..leftP); a target no release holds is left every value of the SA domain
-- ref: docs/decisions/0001-composition-check.md; pair_bits (shape): the two releases' bits of each pair, in pair order
{{ target | create_table }} AS
WITH k AS (
    SELECT p.pid, k.present, k.n
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
d AS (
    SELECT count(*) AS size FROM {{ domain | table }}
)
SELECT k.pid, k.present, CAST(k.n AS BIGINT) AS n,
       CASE WHEN k.present = 0 THEN d.size
            ELSE count(m.sa) FILTER (WHERE (m.mask & k.present) = k.present) END AS left_all
{% for b in pair_bits %}
     , CASE WHEN (k.present & {{ b }}) = 0 THEN d.size
            ELSE count(m.sa) FILTER (WHERE (m.mask & k.present & {{ b }}) = (k.present & {{ b }})) END AS {{ ('left' ~ loop.index) | ident }}
{% endfor %}
FROM k
CROSS JOIN d
LEFT JOIN {{ membership | table }} AS m ON m.pid = k.pid
GROUP BY k.pid, k.present, k.n, d.size
