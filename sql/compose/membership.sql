-- purpose: per set of releases the check counts, combination of units in it (compose/combos.sql) and word of SA values, each release's union mask side by side, on the words where the set's intersection can hold a value
-- params: none
-- returns: creates target(s, cmb, word, m1..mM): s the set's position in sets (0: all releases), cmb its combination (combos' c<s>); m<r> 0 where release r leaves no value of the word, does not hold the rows or is not in the set
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"; the chosen release is named by two least() over the set's releases, so the statement grows with the releases, not their pairs). The intersection over a set of releases holding the rows is empty outside the words of any one of them without a shared mask (compose/shared.sql): per combination, the words of such a release's unit with the fewest words (the first on ties) are enough; where every release of the set holding the rows has a shared mask, the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read once per combination of the set, on the few words of another release's unit where there is one
{% set NONE = 9223372036854775807 %}
{{ target | create_table }} AS
WITH
{% for u in units %}
{% set r = loop.index %}
{{ ('n' ~ r) | ident }} AS (
    SELECT uid, count(*) AS w FROM {{ umasks[loop.index0] | table }} GROUP BY uid
),
{% endfor %}
{% for set in sets %}
{% set s = loop.index0 %}
{{ ('q' ~ s) | ident }} AS (
    SELECT cu.*{% for r in set %}, coalesce({{ ('c' ~ r) | ident }}.w, 0) AS {{ ('w' ~ r) | ident }}{% endfor %}

    FROM (
        SELECT {{ ('c' ~ s) | ident }} AS cmb, min(present & {{ set_bits[s] }}) AS present{% for r in set %}, min({{ ('u' ~ r) | ident }}) AS {{ ('u' ~ r) | ident }}{% endfor %}

        FROM {{ combos | table }}
        GROUP BY {{ ('c' ~ s) | ident }}
    ) AS cu
{% for r in set %}
    LEFT JOIN {{ ('n' ~ r) | ident }} AS {{ ('c' ~ r) | ident }} ON {{ ('c' ~ r) | ident }}.uid = cu.{{ ('u' ~ r) | ident }}
{% endfor %}
),
{% set ns_own = namespace(r=[]) %}{% for r in set if noshared[r - 1] %}{% set ns_own.r = ns_own.r + [r] %}{% endfor %}{% set own = ns_own.r %}
{{ ('m' ~ s) | ident }} AS (
    SELECT q.*, {% if own %}least({{ NONE }}{% for r in own %}, CASE WHEN (present & {{ 2 ** (r - 1) }}) <> 0 THEN {{ ('w' ~ r) | ident }} ELSE {{ NONE }} END{% endfor %}){% else %}{{ NONE }}{% endif %} AS fewest
    FROM {{ ('q' ~ s) | ident }} AS q
),
{{ ('t' ~ s) | ident }} AS (
    SELECT m.*, {% if own %}least({{ NONE }}{% for r in own %}, CASE WHEN (present & {{ 2 ** (r - 1) }}) <> 0 AND {{ ('w' ~ r) | ident }} = fewest THEN {{ r }} ELSE {{ NONE }} END{% endfor %}){% else %}{{ NONE }}{% endif %} AS {{ 'first' | ident }}
    FROM {{ ('m' ~ s) | ident }} AS m
),
{% endfor %}
chosen AS (
{% set ns = namespace(first=true) %}
{% for set in sets %}
{% set s = loop.index0 %}
{% for r in set %}
{% if not ns.first %}
    UNION ALL
{% endif %}
{% set ns.first = false %}
    SELECT {{ s }} AS s, cmb, {{ r }} AS r, {{ ('u' ~ r) | ident }} AS uid
    FROM {{ ('t' ~ s) | ident }}
    WHERE (present & {{ 2 ** (r - 1) }}) <> 0 AND {{ ('u' ~ r) | ident }} <> 0
      AND {{ 'first' | ident }} = {% if noshared[r - 1] %}{{ r }}{% else %}{{ NONE }}{% endif %}

{% endfor %}
{% endfor %}
),
words AS (
{% for u in units %}
{% set r = loop.index %}
    SELECT c.s, c.cmb, m.word
    FROM chosen AS c
    JOIN {{ umasks[loop.index0] | table }} AS m ON m.uid = c.uid
    WHERE c.r = {{ r }}
{% if not loop.last %}
    UNION
{% endif %}
{% endfor %}
)
{% for set in sets %}
{% set s = loop.index0 %}
SELECT w.s, w.cmb, w.word{% for u in units %}{% set r = loop.index %}, {% if r in set %}coalesce({{ ('y' ~ r) | ident }}.mask, 0){% else %}CAST(0 AS BIGINT){% endif %} AS {{ ('m' ~ r) | ident }}{% endfor %}

FROM words AS w
JOIN {{ ('t' ~ s) | ident }} AS cu ON cu.cmb = w.cmb
{% for r in set %}
LEFT JOIN {{ umasks[r - 1] | table }} AS {{ ('y' ~ r) | ident }} ON {{ ('y' ~ r) | ident }}.uid = cu.{{ ('u' ~ r) | ident }} AND {{ ('y' ~ r) | ident }}.word = w.word
{% endfor %}
WHERE w.s = {{ s }}
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
