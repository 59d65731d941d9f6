-- purpose: full-domain (global) recoding labels per row: every QI value replaced by its ancestor at the chosen hierarchy level (level 0 keeps the value)
-- params: hids, levels
-- returns: creates target(rid, q1..qd, a1..as): the labels plus the SA values
-- ref: SPEC §0.4; ARX full-domain transformations (one level per attribute)
{{ target | create_table }} AS
SELECT src.rowid AS rid
{% for c in qi %}
    , {% if kinds[loop.index0] == 'hierarchy' %}lv{{ loop.index }}.label{% else %}CAST(src.{{ c | ident }} AS VARCHAR){% endif %} AS {{ ('q' ~ loop.index) | ident }}
{% endfor %}
{% for c in sa %}
    , src.{{ c | ident }} AS {{ ('a' ~ loop.index) | ident }}
{% endfor %}
FROM {{ source | table }} AS src
{% for c in qi %}
{% if kinds[loop.index0] == 'hierarchy' %}
LEFT JOIN ldiv.hierarchy_level AS lv{{ loop.index }}
  ON lv{{ loop.index }}.hierarchy_id = list_extract($hids, {{ loop.index }})
 AND lv{{ loop.index }}.level = list_extract($levels, {{ loop.index }})
 AND lv{{ loop.index }}.leaf = CAST(src.{{ c | ident }} AS VARCHAR)
{% endif %}
{% endfor %}
