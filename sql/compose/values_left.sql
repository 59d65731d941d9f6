-- purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, counted bit by bit
-- params: none
-- returns: creates target(pid, present, n, left_all, left1..leftP); a target no release (of the pair) holds is left every value of the SA domain
-- ref: docs/decisions/0005-composition-check.md; pairs (shape): the two releases' positions of each pair; a release not holding the row takes part as -1 (every bit set)
{{ target | create_table }} AS
WITH k AS (
    SELECT p.pid, k.present, k.n
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
a AS (
    SELECT k.pid, k.present, k.n,
           {% for r in range(1, m + 1) %}CASE WHEN (k.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(m.{{ ('m' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS a_all
{% for pair in pairs %}
{% set a = ('a' ~ loop.index) | ident %}
         , {% for r in pair %}CASE WHEN (k.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(m.{{ ('m' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS {{ a }}
{% endfor %}
    FROM k
    LEFT JOIN {{ membership | table }} AS m ON m.pid = k.pid
),
d AS (
    SELECT count(*) AS size FROM {{ domain | table }}
)
SELECT a.pid, a.present, CAST(a.n AS BIGINT) AS n,
       CASE WHEN a.present = 0 THEN d.size
            ELSE sum({% for i in range(62) %}((a.a_all >> {{ i }}) & 1){% if not loop.last %} + {% endif %}{% endfor %}) END AS left_all
{% for pair in pairs %}
{% set a = ('a' ~ loop.index) | ident %}
{% set left = ('left' ~ loop.index) | ident %}
     , CASE WHEN (a.present & {{ 2 ** (pair[0] - 1) + 2 ** (pair[1] - 1) }}) = 0 THEN d.size
            ELSE sum({% for i in range(62) %}((a.{{ a }} >> {{ i }}) & 1){% if not loop.last %} + {% endif %}{% endfor %}) END AS {{ left }}
{% endfor %}
FROM a
CROSS JOIN d
GROUP BY a.pid, a.present, a.n, d.size
