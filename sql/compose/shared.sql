-- purpose: per word of SA values, each release's shared mask side by side: the values of its classes that cover every target (classes.sql's everywhere), which every target's union in that release holds
-- params: none
-- returns: creates target(word, a1..aM) (0 where a release has no such value in the word; words no release shares are absent)
-- ref: docs/decisions/0005-composition-check.md ("A class that covers every target"); masks_of, classes_of (shape): each release's class masks and classes, in the releases' order; the releases' masks are stacked, then spread over the columns by one grouping (a column per release from one branch each kept the text and the plan linear in the releases, where a branch per release with a column per release grew with their square)
{{ target | create_table }} AS
SELECT word{% for t in masks_of %}, bit_or(CASE WHEN r = {{ loop.index }} THEN mask ELSE 0 END) AS {{ ('a' ~ loop.index) | ident }}{% endfor %}

FROM (
{% for t in masks_of %}
    SELECT {{ loop.index }} AS r, cm.word, cm.mask
    FROM {{ t | table }} AS cm
    JOIN {{ classes_of[loop.index0] | table }} AS c ON c.cid = cm.cid
    WHERE c.everywhere
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
) AS u
GROUP BY word
