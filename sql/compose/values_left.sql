-- purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, for all of them and for every pair, their bits counted (bit_count)
-- params: none
-- returns: creates target(pid, present, n, cmb, left_all, left1..leftP) (cmb: the target's combination of all releases, compose/combos.sql's c0); a target no release (of the pair) holds is left every value of the SA domain
-- ref: docs/decisions/0005-composition-check.md ("A class that covers every target", "A class that covers many targets"); sets (shape): the sets of releases counted, all of them first, then each pair not equal to it (1-based), set_bits their bits; pairs: the two releases' positions of each pair, pair_sets the position of its set in sets; a release not holding the row takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR its unit's mask (membership.sql). Each set's counts are made once per combination of its units (membership.sql's rows of the set; one row per combination by its grouping, whatever the presence outside the set), then given to the targets of the combination. Words where the combination has no own mask count the same for every target held by the same releases: g counts every shared word once per such set, and each own word replaces its shared-only count (y) by its full one (x)
{{ target | create_table }} AS
WITH k AS (
    SELECT p.pid, k.present, k.n{% for set in sets %}, c.{{ ('c' ~ loop.index0) | ident }}{% endfor %}

    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

    JOIN {{ combos | table }} AS c ON c.pid = p.pid AND c.present = k.present
),
{% for set in sets %}
{% set i = loop.index0 %}
{{ ('a' ~ i) | ident }} AS (
    SELECT cp.cmb
         , {% for r in set %}CASE WHEN (cp.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(s.{{ ('a' ~ r) | ident }}, 0) | coalesce(m.{{ ('m' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS x
         , {% for r in set %}CASE WHEN (cp.present & {{ 2 ** (r - 1) }}) = 0 THEN -1 ELSE coalesce(s.{{ ('a' ~ r) | ident }}, 0) END{% if not loop.last %} & {% endif %}{% endfor %} AS y
    FROM (SELECT {{ ('c' ~ i) | ident }} AS cmb, min(present & {{ set_bits[i] }}) AS present FROM k GROUP BY {{ ('c' ~ i) | ident }}) AS cp
    LEFT JOIN {{ membership | table }} AS m ON m.s = {{ i }} AND m.cmb = cp.cmb
    LEFT JOIN {{ shared | table }} AS s ON s.word = m.word
),
{{ ('own' ~ i) | ident }} AS (
    SELECT cmb, sum(bit_count(x)) - sum(bit_count(y)) AS o
    FROM {{ ('a' ~ i) | ident }}
    GROUP BY cmb
),
{% endfor %}
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
SELECT k.pid, k.present, CAST(k.n AS BIGINT) AS n, k.{{ 'c0' | ident }} AS cmb,
       CAST(CASE WHEN k.present = 0 THEN d.size ELSE {{ 'own0' | ident }}.o + coalesce(g.{{ 'g0' | ident }}, 0) END AS BIGINT) AS left_all
{% for pair in pairs %}
{% set i = pair_sets[loop.index0] %}
     , CAST(CASE WHEN (k.present & {{ 2 ** (pair[0] - 1) + 2 ** (pair[1] - 1) }}) = 0 THEN d.size
            ELSE {{ ('own' ~ i) | ident }}.o + coalesce(g.{{ ('g' ~ i) | ident }}, 0) END AS BIGINT) AS {{ ('left' ~ loop.index) | ident }}
{% endfor %}
FROM k
{% for set in sets %}
JOIN {{ ('own' ~ loop.index0) | ident }} ON {{ ('own' ~ loop.index0) | ident }}.cmb = k.{{ ('c' ~ loop.index0) | ident }}
{% endfor %}
CROSS JOIN d
LEFT JOIN g ON g.present = k.present
