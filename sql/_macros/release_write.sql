{#- Included fragment (not a statement): the query the published table is created from, ordered by group, then
    within a group by a hash of the row's published values. Context: assignment, source, qi, sa, keep,
    group_column (None: the group column is not published, and the rows are ordered by the hash alone); with fused false, labels and labels_by ('gid' or 'rid': the labels table's key); with fused
    true, as_text (per QI) and folded (default false), and the suppression labels are computed over each group's rows in the statement: a
    number QI's label is its min = max with no NULL (integer aggregates); a text QI's distinct values are numbered
    (d<i>: value, code, label text), the rows' values looked up as codes, a group's label the code all its rows
    share (min = max, NULL being a value of its own: its label '*'; else 0, '*'), its text looked up once per group.
    folded: a QI, SA or kept column holds two spellings its collation holds one value (DuckDB NOCASE, a
    nondeterministic ICU collation; core/inputs.py folds_spellings). A column-wide numbering names such a value
    by one spelling, which the group may not hold, and rows differing only in spelling hash alike, so their
    stored order is the plan's: the labels are then min / max windows over each group's rows as before.
    stars (fused, not folded; default none): the groups whose rows disagree on some QI, a flag per QI (gid,
    s1..sd; algorithms/base.py Partitioning.group_stars); a row of any other group agrees with its group on
    every QI. Each row is then labelled from its own value, or '*' where its group's flag is set, with no
    grouping of the rows; the labels are those the codes give wherever the algorithm's flags are right (the
    caller takes them only for QI types whose equal values print alike), and the verification finds each
    group's label vectors on the written table either way. -#}
{% set with_stars = fused and not (folded | default(false)) and (stars | default(none)) is not none %}
{% set by_codes = fused and not (folded | default(false)) and not with_stars %}
{% if with_stars %}
WITH lab AS (
    SELECT
        asg.gid,
        asg.sa_suppressed,
{% for c in sa %}
        src.{{ c | ident }} AS {{ ('s' ~ loop.index) | ident }},
{% endfor %}
{% for c in keep %}
        src.{{ c | ident }} AS {{ ('k' ~ loop.index) | ident }},
{% endfor %}
{% for c in qi %}
        CASE WHEN st.{{ ('s' ~ loop.index) | ident }} THEN '*' ELSE coalesce(CAST(src.{{ c | ident }} AS VARCHAR), '*') END AS {{ ('q' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM {{ assignment | table }} AS asg
    JOIN {{ source | table }} AS src ON src.rowid = asg.rid
    LEFT JOIN {{ stars | table }} AS st ON st.gid = asg.gid
    WHERE NOT asg.deleted
)
{% elif by_codes %}
WITH
{% for c in qi %}
{% if as_text[loop.index0] %}
{{ ('d' ~ loop.index) | ident }} AS (
    SELECT v, row_number() OVER (ORDER BY v) AS code, coalesce(v, '*') AS label
    FROM (SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS v FROM {{ source | table }}) AS dv
),
{% endif %}
{% endfor %}
rows_in AS (
    SELECT
{% for c in qi %}
        {% if as_text[loop.index0] %}{{ ('d' ~ loop.index) | ident }}.code{% else %}src.{{ c | ident }}{% endif %} AS {{ ('c' ~ loop.index) | ident }},
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
{% for c in qi %}
{% if as_text[loop.index0] %}
    JOIN {{ ('d' ~ loop.index) | ident }} ON CAST(src.{{ c | ident }} AS VARCHAR) IS NOT DISTINCT FROM {{ ('d' ~ loop.index) | ident }}.v
{% endif %}
{% endfor %}
    WHERE NOT asg.deleted
), codes AS (
    SELECT
        gid,
{% for c in qi %}
{% set v = ('c' ~ loop.index) | ident %}
{% if as_text[loop.index0] %}
        CASE WHEN min({{ v }}) = max({{ v }}) THEN min({{ v }}) ELSE 0 END AS {{ v }}{% if not loop.last %},{% endif %}
{% else %}
        CASE WHEN min({{ v }}) = max({{ v }}) AND count({{ v }}) = count(*) THEN CAST(min({{ v }}) AS VARCHAR) ELSE '*' END AS {{ v }}{% if not loop.last %},{% endif %}
{% endif %}

{% endfor %}
    FROM rows_in
    GROUP BY gid
), labels AS (
    SELECT
        codes.gid,
{% for c in qi %}
        {% if as_text[loop.index0] %}coalesce({{ ('t' ~ loop.index) | ident }}.label, '*'){% else %}codes.{{ ('c' ~ loop.index) | ident }}{% endif %} AS {{ ('q' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM codes
{% for c in qi %}
{% if as_text[loop.index0] %}
{% set t = ('t' ~ loop.index) | ident %}
    LEFT JOIN {{ ('d' ~ loop.index) | ident }} AS {{ t }} ON {{ t }}.code = codes.{{ ('c' ~ loop.index) | ident }}
{% endif %}
{% endfor %}
), lab AS (
    SELECT
        r.gid,
        r.sa_suppressed,
{% for c in sa %}
        r.{{ ('s' ~ loop.index) | ident }},
{% endfor %}
{% for c in keep %}
        r.{{ ('k' ~ loop.index) | ident }},
{% endfor %}
{% for c in qi %}
        labels.{{ ('q' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM rows_in AS r
    JOIN labels ON labels.gid = r.gid
)
{% elif fused %}
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
