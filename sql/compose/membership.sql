-- purpose: per combination of units (compose/combos.sql) and word of SA values, each release's union mask side by side, on the words where the releases' intersection can hold a value
-- params: none
-- returns: creates target(cmb, word, m1..mM): m<r> 0 where release r leaves no value of the word or does not hold the rows
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"). The intersection over the releases holding the rows is empty outside the words of any one of them without a shared mask (compose/shared.sql): per combination, the words of the release compose/driving.sql chose are enough; where it chose none (every release holding the rows has a shared mask), the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read once per combination, on the few words of another release's unit where there is one. present is keys.sql's text, one character per release
{% set NONE = 9223372036854775807 %}
{{ target | create_table }} AS
WITH words AS (
{% for u in units %}
{% set r = loop.index %}
    SELECT t.cmb, m.word
    FROM {{ driving | table }} AS t
    JOIN {{ umasks[loop.index0] | table }} AS m ON m.uid = t.{{ ('u' ~ r) | ident }}
    WHERE substring(t.present, {{ r }}, 1) = '1' AND t.{{ ('u' ~ r) | ident }} <> 0
      AND t.{{ 'first' | ident }} = {% if noshared[r - 1] %}{{ r }}{% else %}{{ NONE }}{% endif %}

{% if not loop.last %}
    UNION
{% endif %}
{% endfor %}
)
SELECT w.cmb, w.word{% for u in units %}{% set r = loop.index %}, coalesce({{ ('y' ~ r) | ident }}.mask, 0) AS {{ ('m' ~ r) | ident }}{% endfor %}

FROM words AS w
JOIN {{ driving | table }} AS cu ON cu.cmb = w.cmb
{% for u in units %}
{% set r = loop.index %}
LEFT JOIN {{ umasks[loop.index0] | table }} AS {{ ('y' ~ r) | ident }} ON {{ ('y' ~ r) | ident }}.uid = cu.{{ ('u' ~ r) | ident }} AND {{ ('y' ~ r) | ident }}.word = w.word
{% endfor %}
