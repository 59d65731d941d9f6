{#- Included fragment (not a statement): the query the published table is created from, ordered by group, then
    within a group by a hash of the row's published values. Context: assignment, source, qi, sa, keep,
    group_column (None: the group column is not published, and the rows are ordered by the hash alone); with fused false, labels and labels_by ('gid' or 'rid': the labels table's key); with fused
    true, as_text (per QI), and the suppression labels are computed over each group's rows in the statement. -#}
{% if fused %}
WITH rows_in AS (
    SELECT
{% for c in qi %}
        {% if as_text[loop.index0] %}CAST(src.{{ c | ident }} AS VARCHAR){% else %}src.{{ c | ident }}{% endif %} AS {{ ('v' ~ loop.index) | ident }},
{% endfor %}
{% for c in sa %}
        src.{{ c | ident }} AS {{ ('s' ~ loop.index) | ident }},
{% endfor %}
{% for c in keep %}
        src.{{ c | ident }} AS {{ ('k' ~ loop.index) | ident }},
{% endfor %}
        asg.gid,
        asg.sa_suppressed
    FROM {{ assignment | table }} AS asg
    JOIN {{ source | table }} AS src ON src.rowid = asg.rid
    WHERE NOT asg.deleted
), lab AS (
    SELECT
        gid,
        sa_suppressed,
{% for c in sa %}
        {{ ('s' ~ loop.index) | ident }},
{% endfor %}
{% for c in keep %}
        {{ ('k' ~ loop.index) | ident }},
{% endfor %}
{% for c in qi %}
{% set v = ('v' ~ loop.index) | ident %}
        CASE WHEN min({{ v }}) OVER w = max({{ v }}) OVER w AND count({{ v }}) OVER w = count(*) OVER w
             THEN CAST(min({{ v }}) OVER w AS VARCHAR) ELSE '*' END AS {{ ('q' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM rows_in
    WINDOW w AS (PARTITION BY gid)
)
{% endif %}
SELECT
{% for c in qi %}
    lab.{{ ('q' ~ loop.index) | ident }} AS {{ c | ident }},
{% endfor %}
{% for c in sa %}
    CASE WHEN {% if fused %}lab{% else %}asg{% endif %}.sa_suppressed THEN NULL ELSE {% if fused %}lab.{{ ('s' ~ loop.index) | ident }}{% else %}src.{{ c | ident }}{% endif %} END AS {{ c | ident }}{% if not loop.last or keep or group_column %},{% endif %}

{% endfor %}
{% for c in keep %}
    {% if fused %}lab.{{ ('k' ~ loop.index) | ident }}{% else %}src.{{ c | ident }}{% endif %} AS {{ c | ident }}{% if not loop.last or group_column %},{% endif %}

{% endfor %}
{% if group_column %}
    {% if fused %}lab{% else %}asg{% endif %}.gid AS {{ group_column | ident }}
{% endif %}
{% if fused %}
FROM lab
{% else %}
FROM {{ assignment | table }} AS asg
JOIN {{ source | table }} AS src ON src.rowid = asg.rid
JOIN {{ labels | table }} AS lab ON lab.{% if labels_by == 'rid' %}rid = asg.rid{% else %}gid = asg.gid{% endif %}

WHERE NOT asg.deleted
{% endif %}
ORDER BY
{% if group_column %}
    {% if fused %}lab{% else %}asg{% endif %}.gid,
{% endif %}
    hash(
{% for c in qi %}
        lab.{{ ('q' ~ loop.index) | ident }},
{% endfor %}
{% for c in sa %}
        CASE WHEN {% if fused %}lab{% else %}asg{% endif %}.sa_suppressed THEN NULL ELSE {% if fused %}lab.{{ ('s' ~ loop.index) | ident }}{% else %}src.{{ c | ident }}{% endif %} END,
{% endfor %}
{% for c in keep %}
        {% if fused %}lab.{{ ('k' ~ loop.index) | ident }}{% else %}src.{{ c | ident }}{% endif %},
{% endfor %}
        'ldiv-order'
    )
