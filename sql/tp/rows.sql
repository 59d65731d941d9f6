-- purpose: TP's row map: every source row with its QI-group id and its SA id in first-appearance order
-- params: none
-- returns: creates target(rid, g, g2, sid): g = a 63-bit hash of the QI values and g2 an independent one (tp/cells.sql flags a g whose rows disagree on g2, i.e. a collision); with exact_ids, g = g2 = the row id of the group's first row; sid = 1-based SA id (tp/sa_ids.sql)
-- ref: SPEC §1.2 (QI-groups), §0.6 (SA values in first-appearance order); DESIGN §5 (compress first: later steps work on integers); partition/histogram.sql (the same hashing)
--      null_safe: the SA may hold NULL (--null-as-value); else its join is a plain equality (hilbert/coords.sql says why)
{% set null_safe = null_safe | default(true) %}
{{ target | create_table }} AS
SELECT
    src.rowid AS rid,
{% if exact_ids %}
    min(src.rowid) OVER (PARTITION BY {% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g,
    min(src.rowid) OVER (PARTITION BY {% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g2,
{% else %}
    CAST(hash({% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) >> 1 AS BIGINT) AS g,
    CAST(hash({% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}, 'ldiv') >> 1 AS BIGINT) AS g2,
{% endif %}
    val.sid
FROM {{ source | table }} AS src
JOIN {{ sa_ids | table }} AS val ON src.{{ sa | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} val.v
