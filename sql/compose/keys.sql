-- purpose: the attacker's targets: every source row's QI value codes and the set of releases that publish it, counted per distinct pair
-- params: deleting
-- returns: creates target(v1..vk, present, n): v_i the code of QI i's value (value_codes.sql), present the releases holding the row as text of m characters ('1' at position r when the r-th release holds it, '0' when it deleted it), n the source rows
-- ref: docs/decisions/0005-composition-check.md ("More than 62 releases": text has no fixed width, where a BIGINT mask held 62 releases); m (shape): the releases; positions (shape): per release with deleted rows its position r, with deleting[i] its release id, read from ldiv.release_row (the private link, never published)
{{ target | create_table }} AS
WITH g AS (
    SELECT {% for c in qi %}CAST(s.{{ c | ident }} AS VARCHAR) AS {{ ('t' ~ loop.index) | ident }}, {% endfor %}

{% set at = namespace(r=0) %}
           CAST({% for r in positions %}{% if r > at.r + 1 %}repeat('1', {{ r - at.r - 1 }}) || {% endif %}CASE WHEN {{ ('d' ~ loop.index) | ident }}.source_rowid IS NULL THEN '1' ELSE '0' END || {% set at.r = r %}{% endfor %}repeat('1', {{ m - at.r }}) AS VARCHAR) AS present,
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
