-- purpose: the attacker's targets: every source row's QI value codes and the set of releases that publish it, counted per distinct pair
-- params: deleting
-- returns: creates target(v1..vk, present, n): v_i the code of QI i's value (value_codes.sql), present the bit mask (bit r-1 for the r-th release) of the releases holding the row, n the source rows
-- ref: docs/decisions/0005-composition-check.md; positions (shape): per release with deleted rows its position r, with deleting[i] its release id, read from ldiv.release_row (the private link, never published)
{{ target | create_table }} AS
WITH g AS (
    SELECT {% for c in qi %}CAST(s.{{ c | ident }} AS VARCHAR) AS {{ ('t' ~ loop.index) | ident }}, {% endfor %}

           {{ full }}{% for r in positions %} - CASE WHEN {{ ('d' ~ loop.index) | ident }}.source_rowid IS NULL THEN 0 ELSE {{ 2 ** (r - 1) }} END{% endfor %} AS present,
           count(*) AS n
    FROM {{ source | table }} AS s
{% for r in positions %}
{% set d = ('d' ~ loop.index) | ident %}
    LEFT JOIN (
        SELECT DISTINCT source_rowid FROM ldiv.release_row
        WHERE release_id = list_extract($deleting, {{ loop.index }}) AND group_id IS NULL
    ) AS {{ d }} ON {{ d }}.source_rowid = s.rowid
{% endfor %}
    GROUP BY ALL
)
SELECT {% for c in qi %}{{ ('c' ~ loop.index) | ident }}.code AS {{ ('v' ~ loop.index) | ident }}, {% endfor %}g.present, g.n
FROM g
{% for c in qi %}
{% set a = ('c' ~ loop.index) | ident %}
JOIN {{ codes | table }} AS {{ a }} ON {{ a }}.attr = {{ loop.index }} AND {{ a }}.value = g.{{ ('t' ~ loop.index) | ident }}
{% endfor %}
