-- purpose: TP's row map: every source row with its rank in the seeded tie key's order, its QI-group id and its SA id in first-appearance order
-- params: seed
-- returns: creates target(tie, src, g, g2, sid): tie orders the rows as TP breaks its ties: keyed (TP reads the source as it is), the seeded key of the row's source row id (the order of the row ids the seeded copy, sql/order/seeded_source.sql, would give: tp/cells.sql ranks the groups' first keys), else (the source is that copy) the row id; src = its source row id; g = a 63-bit hash of the QI values and g2 an independent one (tp/cells.sql flags a g whose rows disagree on g2, i.e. a collision); with exact_ids, g = g2 = the least key (keyed) or row id of the rows with the group's QI values; sid = 1-based SA id (tp/sa_ids.sql, keyed)
-- ref: SPEC §1.2 (QI-groups), §0.6 (SA values in first-appearance order); DESIGN §5 (compress first: later steps work on integers), §6 (ties follow the seeded key, never the source's row ids or order); _macros/seeded_key.sql; partition/histogram.sql (the same hashing; g2 reads the salted keys, as its gid2)
--      null_safe: the SA may hold NULL (--null-as-value); else its join is a plain equality (hilbert/coords.sql says why)
{% set null_safe = null_safe | default(true) %}
{{ target | create_table }} AS
{% if keyed %}
WITH ldiv_keyed AS (
    SELECT
        CAST(src.rowid AS BIGINT) AS ldiv_k,
{% if exact_ids %}
{% for c in qi %}
        src.{{ c | ident }} AS {{ ('q' ~ loop.index) | ident }},
{% endfor %}
{% else %}
        CAST(hash({% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) >> 1 AS BIGINT) AS g,
        CAST(hash({{ qi | salted(prefix='src') }}) >> 1 AS BIGINT) AS g2,
{% endif %}
        val.sid
    FROM {{ source | table }} AS src
    JOIN {{ sa_ids | table }} AS val ON src.{{ sa | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} val.v
),
{% include "_macros/seeded_key.sql" %}

SELECT
    ldiv_key AS tie,
    ldiv_k AS src,
{% if exact_ids %}
    min(ldiv_key) OVER (PARTITION BY {% for c in qi %}{{ ('q' ~ loop.index) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g,
    min(ldiv_key) OVER (PARTITION BY {% for c in qi %}{{ ('q' ~ loop.index) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g2,
{% else %}
    g,
    g2,
{% endif %}
    sid
FROM ldiv_keys
{% else %}
SELECT
    src.rowid AS tie,
    src.rowid AS src,
{% if exact_ids %}
    min(src.rowid) OVER (PARTITION BY {% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g,
    min(src.rowid) OVER (PARTITION BY {% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS g2,
{% else %}
    CAST(hash({% for c in qi %}src.{{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) >> 1 AS BIGINT) AS g,
    CAST(hash({{ qi | salted(prefix='src') }}) >> 1 AS BIGINT) AS g2,
{% endif %}
    val.sid
FROM {{ source | table }} AS src
JOIN {{ sa_ids | table }} AS val ON src.{{ sa | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} val.v
{% endif %}
