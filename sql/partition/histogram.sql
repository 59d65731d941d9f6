-- purpose: the compressed partition: per group (equal key tuple) and SA, the count of every SA value
-- params: none
-- returns: creates target(gid, k1..kd, s, v, n): gid = dense rank of the key tuple, s = SA position (1-based), v = SA value as text (NULL = unknown), n = rows
-- ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v))
{{ target | create_table }} AS
WITH cells AS (
{% for col in sa %}
    SELECT
{% for key in keys %}
        {{ key | ident }} AS {{ ('k' ~ loop.index) | ident }},
{% endfor %}
        {{ loop.index }} AS s,
{% if null_as_value %}
        coalesce(CAST({{ col | ident }} AS VARCHAR), '<NULL>') AS v,
{% else %}
        CAST({{ col | ident }} AS VARCHAR) AS v,
{% endif %}
        count(*) AS n
    FROM {{ source | table }}
    GROUP BY ALL
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
)
SELECT
    dense_rank() OVER (ORDER BY {% for key in keys %}{{ ('k' ~ loop.index) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}) AS gid,
    *
FROM cells
