-- purpose: the compressed histogram l+-Optimize searches on: (leaf vector, SA value, class) -> number of rows
-- params: none
-- returns: l1..ld (32-bit node ids), s, k, n ordered by all columns
-- ref: Liu & Wang §VI-C (statistics of the (generalized QI, SA) histogram); DESIGN §5 (compress first)
SELECT
{% for i in range(1, d + 1) %}
    CAST({{ ('l' ~ i) | ident }} AS INTEGER) AS {{ ('l' ~ i) | ident }},
{% endfor %}
    s, k, count(*) AS n
FROM {{ rows | table }}
GROUP BY ALL
ORDER BY ALL
