-- purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown")
-- params: none
-- returns: rows, starred_rows, sa_suppressed_rows
-- ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown")
SELECT
    count(*) AS rows,
    count(*) FILTER (WHERE
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) = '*'{% if not loop.last %} OR{% endif %}

{% endfor %}
    ) AS starred_rows,
{% if rsa %}
    count(*) FILTER (WHERE
{% for c in rsa %}
        {{ c | ident }} IS NULL{% if not loop.last %} OR{% endif %}

{% endfor %}
    ) AS sa_suppressed_rows
{% else %}
    0 AS sa_suppressed_rows
{% endif %}
FROM {{ release | table }}
