{#- Included fragment (not a statement): the histogram's rows with hashed group ids, (gid, gid2, s, v,
    unknown, n), of one part when partitioned. Context: source, keys, sa, null_as_value, partitioned;
    params parts, part when partitioned. -#}
{% set part_keys = keys[:2] %}
{% for col in sa %}
SELECT
    CAST(hash({{ keys | idents }}) >> 1 AS BIGINT) AS gid,
    CAST(hash({{ keys | salted }}) >> 1 AS BIGINT) AS gid2,
    {{ loop.index }} AS s,
    CAST({{ col | ident }} AS VARCHAR) AS v,
    {% if null_as_value %}false{% else %}{{ col | ident }} IS NULL{% endif %} AS unknown,
    count(*) AS n
FROM {{ source | table }}
{% if partitioned %}
WHERE CAST(hash({{ part_keys | idents }}) >> 1 AS BIGINT) % $parts = $part
{% endif %}
GROUP BY 1, 3, 2, 4, 5  -- gid and s first: the statistics over these rows group by them
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
