-- purpose: the partition's shapes (per SA, its groups of equal size, with their largest pillar height) and, given a verdict, how many groups and rows violate the model and which groups are the worst, in one statement
-- params: worst, ls, c_num, c_den, min_values
-- returns: part, s, size, h, groups, n_values, entropy, collided, gid, severity, place. part 0, one row per SA and class size: s, size, h (the largest pillar height of those groups: the least |G|/h(G) among them is size / h), groups (how many), n_values (their least distinct count), entropy (their least), collided (how many of them have a hashed id two key tuples share: partition/gid_check.sql's count); with a verdict, part 1, one row: groups = the violating groups, size = their rows; part 2, one row per worst group (at most worst; rows in no order): gid, severity, size, place (1 = the worst: severity, then size, then gid)
-- ref: SPEC §0.2; issue 2 item 7 (frequency l = min |G|/h(G), entropy l = exp(min entropy)); issue 57 item 1 (the partition's summary and the verdict's in one statement of plain aggregates, where two statements joined aggregates); the few shapes are reduced exactly in Python (ldiv_db/core/evaluator.py: shape_summaries); grouped by size alone, not by size and h: as many rows as class sizes, fewer to send and reduce, and the same summary (issue 57 item 1, round 6); with verdict_template (a model's verdict template: privacy/distinct, entropy, frequency, recursive), the verdict is that template's rows read inline as the CTE named verdict instead of a stored table, and ls, c_num, c_den, min_values are its params (those it does not use are not bound): a check's verdict neither written nor read again (issue 57 item 1, round 3)
{% if verdict_template | default(none) %}
{% if with_open | default(false) %}, {% else %}WITH {% endif %}{{ verdict | table }} AS (
{% include verdict_template %}

)
{% endif %}
SELECT
    0 AS part,
    s,
    CAST(size AS BIGINT) AS size,
    CAST(max(h) AS BIGINT) AS h,
    count(*) AS groups,
    min(n_values) AS n_values,
    min(entropy) AS entropy,
    count(*) FILTER (WHERE collided) AS collided,
    CAST(NULL AS BIGINT) AS gid,
    CAST(NULL AS DOUBLE) AS severity,
    CAST(NULL AS BIGINT) AS place
FROM {{ stats | table }}
GROUP BY s, size
{% if verdict | default(none) %}
UNION ALL
SELECT
    1, NULL, CAST(coalesce(sum(size) FILTER (WHERE NOT ok), 0) AS BIGINT), NULL, count(*) FILTER (WHERE NOT ok),
    NULL, NULL, NULL, NULL, NULL, NULL
FROM {{ verdict | table }}
UNION ALL
SELECT 2, NULL, size, NULL, NULL, NULL, NULL, NULL, gid, severity,
       row_number() OVER (ORDER BY severity DESC, size DESC, gid) AS place
FROM (
{% include "_macros/worst_violators.sql" %}
) AS w
{% endif %}
