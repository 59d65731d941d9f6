-- purpose: the compressed partition of a written release for its verification, from the release aggregate: per group (equal group id, or equal QI label vector) and SA, the count of every SA value
-- params: none
-- returns: creates target(gid, gid2, s, v, unknown, n) as partition/histogram.sql builds it (one_row_each: by group id, with one SA, when release/same_partition.sql found one label vector per group id — the aggregate's rows are then one per group id and SA value, and are taken without aggregating): by group id, gid = gid2 = the group id as written (an integer: release/write.sql's); by labels with hash_ids, gid and gid2 are two hashes of the label vector q1..qd (partition/histogram.sql's, so partition/gid_check.sql finds a collision), else both the dense rank of the label vector
-- ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels as an attacker groups them); same ids as partition/group_keys.sql (raw_id, hashed, ranked); hashing the labels costs half of ranking them, the group id needs neither (issue 12)
{% set hash_ids = hash_ids | default(false) %}
{% set ranked = by_labels and not hash_ids %}
{{ target | create_table }} AS
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
    CAST(hash({{ qi | idents }}, 'ldiv') >> 1 AS BIGINT) AS gid2,
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
