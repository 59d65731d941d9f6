-- purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown"); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each
-- params: none
-- returns: rows, starred_rows, sa_suppressed_rows
-- ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown")
{% set counted = counted | default(false) %}
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
    ), 0) AS BIGINT) AS sa_suppressed_rows
{% else %}
    0 AS sa_suppressed_rows
{% endif %}
FROM {{ release | table }}
