-- purpose: the own unit masks (compose/unit_masks.sql) of every release holding the rows of a combination (compose/combos.sql) that some pair of releases can leave below its l, the releases stacked: what compose/pair_counts.sql reads
-- params: most
-- returns: creates target(cmb, r, word, mask): r the release's position; only combinations whose rows all the releases leave fewer than most values (the largest l of a pair counted), for a pair leaves every row at least the values all of them leave it
-- ref: docs/decisions/0005-composition-check.md ("Pairs in a fixed number of statements"); driving holds one row per combination with its presence and units (compose/driving.sql); a release that does not hold the rows, or covers them by shared classes only (unit 0), has no row here; umasks (shape): each release's unit masks, in the releases' order
{{ target | create_table }} AS
WITH c AS (
    SELECT t.*
    FROM {{ driving | table }} AS t
    WHERE t.cmb IN (SELECT cmb FROM {{ values | table }} WHERE left_all < $most)
)
{% for u in umasks %}
{% set r = loop.index %}
SELECT c.cmb, {{ r }} AS r, y.word, y.mask
FROM c
JOIN {{ u | table }} AS y ON y.uid = c.{{ ('u' ~ r) | ident }}
WHERE substring(c.present, {{ r }}, 1) = '1' AND c.{{ ('u' ~ r) | ident }} <> 0
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
