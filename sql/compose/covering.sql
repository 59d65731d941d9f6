-- purpose: one step of the covering join: the (target vector prefix, class) pairs whose class labels cover the prefix's values, extended by one QI; the last step gives (pid, cid) for the whole vectors; the classes covering every target (classes.sql's everywhere) stay out: their values are the release's shared mask (shared.sql)
-- params: none
-- returns: creates target(<prefix columns> or pid, cid)
-- ref: docs/decisions/0005-composition-check.md; a label covers a value when the cover table (metrics/cover.sql) pairs them. The vectors are matched attribute by attribute (a trie join): the pairs of distinct prefixes and classes stay few where one join over every attribute would pair each vector with every class covering any one of its values
{% set new = cols[-1] %}
{{ target | create_table }} AS
SELECT {% if last %}p.pid{% else %}{{ cols | idents('p') }}{% endif %}, c.cid
{% if prev is none %}
FROM {% if last %}{{ points | table }}{% else %}(SELECT DISTINCT {{ new | ident }} FROM {{ points | table }}){% endif %} AS p
JOIN {{ cover | table }} AS cv ON cv.attr = {{ attr }} AND cv.value = p.{{ new | ident }}
JOIN {{ classes | table }} AS c ON c.{{ label | ident }} = cv.label AND NOT c.everywhere
{% else %}
FROM {{ prev | table }} AS r
JOIN {% if last %}{{ points | table }}{% else %}(SELECT DISTINCT {{ cols | idents }} FROM {{ points | table }}){% endif %} AS p
  ON {% for c in cols[:-1] %}p.{{ c | ident }} = r.{{ c | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

JOIN {{ classes | table }} AS c ON c.cid = r.cid
JOIN {{ cover | table }} AS cv ON cv.attr = {{ attr }} AND cv.label = c.{{ label | ident }} AND cv.value = p.{{ new | ident }}
{% endif %}
