{#- Included fragment (not a statement): the rows of a written release's histogram for its verification,
    (gid, gid2, s, v, unknown, n), from the release aggregate. Context: aggregate, qi (positional q1..qd), sa,
    by_labels, one_row_each, hash_ids, null_as_value (release/verify_hist.sql says what each means). -#}
{% set hash_ids = hash_ids | default(false) %}
{% set ranked = by_labels and not hash_ids %}
{% if ranked %}
WITH r AS (
    SELECT *, dense_rank() OVER (ORDER BY {{ qi | idents }}) AS rank_id
    FROM {{ aggregate | table }}
)
{% endif %}
{% for col in sa %}
SELECT
{% if not by_labels %}
    CAST(gid AS BIGINT) AS gid,
    CAST(gid AS BIGINT) AS gid2,
{% elif hash_ids %}
    CAST(hash({{ qi | idents }}) >> 1 AS BIGINT) AS gid,
    CAST(hash({{ qi | salted }}) >> 1 AS BIGINT) AS gid2,
{% else %}
    rank_id AS gid,
    rank_id AS gid2,
{% endif %}
    {{ loop.index }} AS s,
    CAST({{ col | ident }} AS VARCHAR) AS v,
    {% if null_as_value %}false{% else %}{{ col | ident }} IS NULL{% endif %} AS unknown,
{% if one_row_each | default(false) %}
    CAST(n AS BIGINT) AS n
FROM {{ aggregate | table }}
{% else %}
    CAST(sum(n) AS BIGINT) AS n
FROM {% if ranked %}r{% else %}{{ aggregate | table }}{% endif %}

GROUP BY ALL
{% endif %}
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
