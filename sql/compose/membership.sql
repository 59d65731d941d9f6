-- purpose: per combination of units (compose/combos.sql) and word of SA values where the releases' intersection can hold a value (compose/words.sql), each release's union mask side by side
-- params: none
-- returns: creates target(cmb, word, m1..mM): m<r> 0 where release r leaves no value of the word or does not hold the rows
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": a class that covers many targets is read once per combination, on the few words of another release's unit where there is one; "More than 62 releases": the releases' masks are stacked and spread over the columns by one grouping, so the statement's plan grows with the releases, not with their square as a join per release did). A release that does not hold the rows has unit 0 in compose/combos.sql, which no unit is
{{ target | create_table }} AS
SELECT cmb, word{% for u in units %}, bit_or(CASE WHEN r = {{ loop.index }} THEN mask ELSE 0 END) AS {{ ('m' ~ loop.index) | ident }}{% endfor %}

FROM (
{% for u in units %}
{% set r = loop.index %}
    SELECT w.cmb, w.word, {{ r }} AS r, y.mask
    FROM {{ words | table }} AS w
    JOIN {{ driving | table }} AS cu ON cu.cmb = w.cmb
    JOIN {{ umasks[loop.index0] | table }} AS y ON y.uid = cu.{{ ('u' ~ r) | ident }} AND y.word = w.word
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
) AS b
GROUP BY cmb, word
