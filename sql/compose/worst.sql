-- purpose: the targets the releases leave fewest SA values: their QI values and the values left (never a source row id)
-- params: worst
-- returns: left_all, n, v1..vk (the QI values as text), sa_left (a list, in the bytes' order); fewest values first, then most rows, then the vectors' order, then the releases holding them (a vector whose rows some release deleted is listed once per set of releases holding its rows)
-- ref: docs/decisions/0005-composition-check.md; targets no release holds are left every value and are not listed; the values left are the AND, over the releases holding the row, of their union masks (as values_left.sql: a release's shared mask OR the target's own), over the words either holds; present is keys.sql's text, one character per release
WITH w AS (
    SELECT pid, present, n, cmb, left_all
    FROM {{ values | table }}
    WHERE present LIKE '%1%'
    ORDER BY left_all, n DESC, pid, present
    LIMIT $worst
),
words AS (
    SELECT w.pid, w.present, m.word FROM w JOIN {{ membership | table }} AS m ON m.cmb = w.cmb
    UNION
    SELECT w.pid, w.present, s.word FROM w CROSS JOIN {{ shared | table }} AS s
),
a AS (
    SELECT x.pid, x.present, x.word,
           {% for r in range(1, m + 1) %}CASE WHEN substring(w.present, {{ r }}, 1) = '1' THEN coalesce(s.{{ ('a' ~ r) | ident }}, 0) | coalesce(m.{{ ('m' ~ r) | ident }}, 0) ELSE -1 END{% if not loop.last %} & {% endif %}{% endfor %} AS mask
    FROM words AS x
    JOIN w ON w.pid = x.pid AND w.present = x.present
    LEFT JOIN {{ membership | table }} AS m ON m.cmb = w.cmb AND m.word = x.word
    LEFT JOIN {{ shared | table }} AS s ON s.word = x.word
)
SELECT w.left_all, w.n{% for v in vs %}, {{ ('t' ~ loop.index) | ident }}.value AS {{ v | ident }}{% endfor %},
       list(d.sa ORDER BY d.sa COLLATE "C") FILTER (WHERE d.sa IS NOT NULL) AS sa_left
FROM w
JOIN {{ points | table }} AS p ON p.pid = w.pid
{% for v in vs %}
{% set t = ('t' ~ loop.index) | ident %}
JOIN {{ codes | table }} AS {{ t }} ON {{ t }}.attr = {{ loop.index }} AND {{ t }}.code = p.{{ v | ident }}
{% endfor %}
LEFT JOIN a ON a.pid = w.pid AND a.present = w.present
LEFT JOIN {{ domain | table }} AS d ON d.word = a.word AND (a.mask & d.bit) <> 0
GROUP BY w.pid, w.present, w.n, w.left_all{% for v in vs %}, {{ ('t' ~ loop.index) | ident }}.value{% endfor %}

ORDER BY w.left_all, w.n DESC, w.pid, w.present
