-- purpose: per target vector and word of SA values, each release's union mask side by side, on the words where an intersection the check counts can hold a value
-- params: none
-- returns: creates target(pid, word, m1..mM) (0 where a release leaves no value of the word)
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"). The intersection over a set of releases holding the row is empty outside the words of any one of them without a shared mask (compose/shared.sql): per target and set (sets, as compose/values_left.sql's), the words of such a release's unit with the fewest words (the first on ties) are enough; where every release of the set holding the row has a shared mask, the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read on the few words of the other release's unit, not copied over all its words for every target it covers
{{ target | create_table }} AS
WITH tp AS (
    SELECT DISTINCT p.pid, k.present
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
{% for u in units %}
{% set r = loop.index %}
{{ ('n' ~ r) | ident }} AS (
    SELECT uid, count(*) AS w FROM {{ umasks[loop.index0] | table }} GROUP BY uid
),
{% endfor %}
tu AS (
    SELECT tp.pid, tp.present{% for u in units %}{% set r = loop.index %}, {{ ('x' ~ r) | ident }}.uid AS {{ ('u' ~ r) | ident }}, coalesce({{ ('c' ~ r) | ident }}.w, 0) AS {{ ('w' ~ r) | ident }}{% endfor %}

    FROM tp
{% for u in units %}
{% set r = loop.index %}
    LEFT JOIN {{ u | table }} AS {{ ('x' ~ r) | ident }} ON {{ ('x' ~ r) | ident }}.pid = tp.pid
    LEFT JOIN {{ ('n' ~ r) | ident }} AS {{ ('c' ~ r) | ident }} ON {{ ('c' ~ r) | ident }}.uid = {{ ('x' ~ r) | ident }}.uid
{% endfor %}
),
chosen AS (
{% set ns = namespace(first=true) %}
{% for set in sets %}
{% for r in set %}
{% if not ns.first %}
    UNION ALL
{% endif %}
{% set ns.first = false %}
    SELECT pid, {{ r }} AS r, {{ ('u' ~ r) | ident }} AS uid
    FROM tu
    WHERE (present & {{ 2 ** (r - 1) }}) <> 0 AND {{ ('u' ~ r) | ident }} IS NOT NULL
{% if noshared[r - 1] %}
{% for q in set if q != r and noshared[q - 1] %}
      AND ((present & {{ 2 ** (q - 1) }}) = 0 OR {{ ('w' ~ r) | ident }} {% if r < q %}<={% else %}<{% endif %} {{ ('w' ~ q) | ident }})
{% endfor %}
{% else %}
{% for q in set if noshared[q - 1] %}
      AND (present & {{ 2 ** (q - 1) }}) = 0
{% endfor %}
{% endif %}
{% endfor %}
{% endfor %}
),
words AS (
{% for u in units %}
{% set r = loop.index %}
    SELECT c.pid, m.word
    FROM chosen AS c
    JOIN {{ umasks[loop.index0] | table }} AS m ON m.uid = c.uid
    WHERE c.r = {{ r }}
{% if not loop.last %}
    UNION
{% endif %}
{% endfor %}
)
SELECT w.pid, w.word{% for u in units %}{% set r = loop.index %}, coalesce({{ ('y' ~ r) | ident }}.mask, 0) AS {{ ('m' ~ r) | ident }}{% endfor %}

FROM words AS w
{% for u in units %}
{% set r = loop.index %}
LEFT JOIN {{ u | table }} AS {{ ('x' ~ r) | ident }} ON {{ ('x' ~ r) | ident }}.pid = w.pid
LEFT JOIN {{ umasks[loop.index0] | table }} AS {{ ('y' ~ r) | ident }} ON {{ ('y' ~ r) | ident }}.uid = {{ ('x' ~ r) | ident }}.uid AND {{ ('y' ~ r) | ident }}.word = w.word
{% endfor %}
