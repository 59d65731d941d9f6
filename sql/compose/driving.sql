-- purpose: per combination of units (compose/combos.sql), the release whose unit's words compose/membership.sql reads: of the releases holding the rows without a shared mask, the one whose unit has the fewest words (the first on ties); none where every release holding the rows has a shared mask
-- params: none
-- returns: creates target(cmb, present, u1..uM, w1..wM, fewest, first): w<r> the words of release r's unit (0: none), first the chosen release's position (9223372036854775807: none)
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"; the chosen release is named by two least() over the releases, so the statement grows with the releases, not their pairs; "More than 62 releases": a table of its own, which compose/membership.sql reads once per release; the units' word counts are stacked and spread over the columns by one grouping, not joined once per release). noshared (shape): per release, true when it has no shared mask; present is keys.sql's text, one character per release
{% set NONE = 9223372036854775807 %}
{% set ns_own = namespace(r=[]) %}{% for u in units %}{% if noshared[loop.index0] %}{% set ns_own.r = ns_own.r + [loop.index] %}{% endif %}{% endfor %}{% set own = ns_own.r %}
{{ target | create_table }} AS
WITH n AS (
{% for u in units %}
    SELECT {{ loop.index }} AS r, uid, count(*) AS w FROM {{ umasks[loop.index0] | table }} GROUP BY uid
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
used AS (
{% for u in units %}
{% set r = loop.index %}
    SELECT DISTINCT cmb, {{ r }} AS r, {{ ('u' ~ r) | ident }} AS uid FROM {{ combos | table }} WHERE {{ ('u' ~ r) | ident }} <> 0
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
ws AS (
    SELECT x.cmb{% for u in units %}, max(CASE WHEN x.r = {{ loop.index }} THEN n.w END) AS {{ ('w' ~ loop.index) | ident }}{% endfor %}

    FROM used AS x
    JOIN n ON n.r = x.r AND n.uid = x.uid
    GROUP BY x.cmb
),
q AS (
    SELECT cu.*{% for u in units %}{% set r = loop.index %}, coalesce(ws.{{ ('w' ~ r) | ident }}, 0) AS {{ ('w' ~ r) | ident }}{% endfor %}

    FROM (
        SELECT DISTINCT cmb, present{% for u in units %}, {{ ('u' ~ loop.index) | ident }}{% endfor %}

        FROM {{ combos | table }}
    ) AS cu
    LEFT JOIN ws ON ws.cmb = cu.cmb
),
m AS (
    SELECT q.*, {% if own %}least({{ NONE }}{% for r in own %}, CASE WHEN substring(present, {{ r }}, 1) = '1' THEN {{ ('w' ~ r) | ident }} ELSE {{ NONE }} END{% endfor %}){% else %}{{ NONE }}{% endif %} AS fewest
    FROM q
)
SELECT m.*, {% if own %}least({{ NONE }}{% for r in own %}, CASE WHEN substring(present, {{ r }}, 1) = '1' AND {{ ('w' ~ r) | ident }} = fewest THEN {{ r }} ELSE {{ NONE }} END{% endfor %}){% else %}{{ NONE }}{% endif %} AS {{ 'first' | ident }}
FROM m
