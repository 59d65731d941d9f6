-- purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown"), SA cells published as unknown, rows with any suppressed cell (a '*' or an unknown SA); and in the same statement its class-size histogram (classes: rows with equal keys, ldiv_db/core/classes.py's class_keys); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each
-- params: none
-- returns: rows, starred_rows, sa_suppressed_rows, sa_unknown_cells, rows_with_suppressed_cells, size, classes: one row per distinct class size (ascending), the counts repeated on each, or one row with size NULL when the release has no class; with pairs (keys gid, q1..qd of a release aggregate), also groups and label_vectors on each row: the classes' distinct group ids and distinct label vectors, release/same_partition.sql's figures (its pairs are the classes)
-- ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown"); docs/decisions/0011 (the words); the histogram is release/class_sizes.sql's (one scan statement fewer: issue 57 item 5, decision 0032)
{% set counted = counted | default(false) %}
{% set pairs = pairs | default(false) %}
WITH per_class AS (
    SELECT {% if pairs %}{{ keys | idents }}, {% endif %}{% if counted %}CAST(sum(n) AS BIGINT){% else %}count(*){% endif %} AS size
    FROM {{ release | table }}
    GROUP BY {{ keys | idents }}
), hist AS (
    SELECT size, count(*) AS classes
    FROM per_class
    GROUP BY size
{% if pairs %}
), parts AS (
    SELECT
        count(DISTINCT {{ keys[0] | ident }}) AS groups,
        (SELECT count(*) FROM (SELECT DISTINCT {{ keys[1:] | idents }} FROM per_class) AS v) AS label_vectors
    FROM per_class
{% endif %}
), counts AS (
SELECT
    CAST(coalesce(sum({% if counted %}n{% else %}1{% endif %}), 0) AS BIGINT) AS rows,
    CAST(coalesce(sum({% if counted %}n{% else %}1{% endif %}) FILTER (WHERE
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) = '*'{% if not loop.last %} OR{% endif %}

{% endfor %}
    ), 0) AS BIGINT) AS starred_rows,
{% if rsa %}
    CAST(coalesce(sum({% if counted %}n{% else %}1{% endif %}) FILTER (WHERE
{% for c in rsa %}
        {{ c | ident }} IS NULL{% if not loop.last %} OR{% endif %}

{% endfor %}
    ), 0) AS BIGINT) AS sa_suppressed_rows,
    CAST(coalesce(sum({% if counted %}n{% else %}1{% endif %} * (
{% for c in rsa %}
        CASE WHEN {{ c | ident }} IS NULL THEN 1 ELSE 0 END{% if not loop.last %} +{% endif %}

{% endfor %}
    )), 0) AS BIGINT) AS sa_unknown_cells,
{% else %}
    0 AS sa_suppressed_rows,
    0 AS sa_unknown_cells,
{% endif %}
    CAST(coalesce(sum({% if counted %}n{% else %}1{% endif %}) FILTER (WHERE
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) = '*' OR
{% endfor %}
{% for c in rsa %}
        {{ c | ident }} IS NULL OR
{% endfor %}
        FALSE
    ), 0) AS BIGINT) AS rows_with_suppressed_cells
FROM {{ release | table }}
)
SELECT counts.*, hist.size, hist.classes{% if pairs %}, parts.groups, parts.label_vectors{% endif %}

FROM counts
{% if pairs %}
CROSS JOIN parts
{% endif %}
LEFT JOIN hist ON TRUE
ORDER BY hist.size
