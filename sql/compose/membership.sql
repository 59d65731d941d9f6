-- purpose: per target vector and SA value, the releases that leave the value (bit r-1 for the r-th release)
-- params: none
-- returns: creates target(pid, sa, mask)
-- ref: docs/decisions/0001-composition-check.md (the intersection across releases is read from the masks)
{{ target | create_table }} AS
SELECT pid, sa, CAST(sum(bit) AS BIGINT) AS mask
FROM (
{% for t in tables %}
    SELECT pid, sa, {{ 2 ** loop.index0 }} AS bit FROM {{ t | table }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
) AS u
GROUP BY pid, sa
