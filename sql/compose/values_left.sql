-- purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, their bits counted (bit_count)
-- params: none
-- returns: creates target(pid, present, n, left_all, left1..leftP); a target no release (of the pair) holds is left every value of the SA domain
-- ref: docs/decisions/0005-composition-check.md ("A class that covers every target"); pairs (shape): the two releases' positions of each pair; a release not holding the row takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR the target's own mask (membership.sql). Words where the target has no own mask count the same for every target held by the same releases: g counts every shared word once per such set, and each own word replaces its shared-only count (y) by its full one (x)
{% set sets = [range(1, m + 1) | list] + (pairs | map('list') | list) %}
{{ target | create_table }} AS
WITH k AS (
    SELECT p.pid, k.present, k.n
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
a AS (
    SELECT k.pid, k.present, k.n
{% for set in sets %}
         , {% for r in set %}CASE WHEN (k.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(s.{{ ('a' ~ r) | ident }}, 0) | coalesce(m.{{ ('m' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS {{ ('x' ~ loop.index0) | ident }}
         , {% for r in set %}CASE WHEN (k.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(s.{{ ('a' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS {{ ('y' ~ loop.index0) | ident }}
{% endfor %}
    FROM k
    LEFT JOIN {{ membership | table }} AS m ON m.pid = k.pid
    LEFT JOIN {{ shared | table }} AS s ON s.word = m.word
),
own AS (
    SELECT pid, present, n
{% for set in sets %}
         , {% set i = loop.index0 %}sum(bit_count({{ ('x' ~ i) | ident }})) - sum(bit_count({{ ('y' ~ i) | ident }})) AS {{ ('o' ~ loop.index0) | ident }}
{% endfor %}
    FROM a
    GROUP BY pid, present, n
),
h AS (
    SELECT DISTINCT present FROM k
),
z AS (
    SELECT h.present
{% for set in sets %}
         , {% for r in set %}CASE WHEN (h.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(s.{{ ('a' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS {{ ('z' ~ loop.index0) | ident }}
{% endfor %}
    FROM h
    CROSS JOIN {{ shared | table }} AS s
),
g AS (
    SELECT present
{% for set in sets %}
         , {% set i = loop.index0 %}sum(bit_count({{ ('z' ~ i) | ident }})) AS {{ ('g' ~ i) | ident }}
{% endfor %}
    FROM z
    GROUP BY present
),
d AS (
    SELECT count(*) AS size FROM {{ domain | table }}
)
SELECT own.pid, own.present, CAST(own.n AS BIGINT) AS n,
       CAST(CASE WHEN own.present = 0 THEN d.size ELSE own.{{ 'o0' | ident }} + coalesce(g.{{ 'g0' | ident }}, 0) END AS BIGINT) AS left_all
{% for pair in pairs %}
     , CAST(CASE WHEN (own.present & {{ 2 ** (pair[0] - 1) + 2 ** (pair[1] - 1) }}) = 0 THEN d.size
            ELSE own.{{ ('o' ~ loop.index) | ident }} + coalesce(g.{{ ('g' ~ loop.index) | ident }}, 0) END AS BIGINT) AS {{ ('left' ~ loop.index) | ident }}
{% endfor %}
FROM own
CROSS JOIN d
LEFT JOIN g ON g.present = own.present
