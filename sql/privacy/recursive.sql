-- purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l
-- params: ls, c_num, c_den, min_values
-- returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = r1 / tail (tail 0 = +inf). counts: the groups' descending counts (partition/group_counts.sql), or with sorted_counts = false the statistics (partition/source_stats.sql: the counts above 1 unordered, and the number of ones), whose counts are sorted here for the groups with at least $min_values values; the ones come last in the descending order: the tail from position l is the listed counts' from l plus the ones, less those ones that are among the first l - 1
-- ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); the tails are summed for the groups with a counts row only, those with at least $min_values values (the counts table's bound, the smallest l); the others fail with an infinite severity and are written without a join (PostgreSQL built its join's hash over every group); one_sa = a single SA, whose groups need no second aggregation. tails is MATERIALIZED: PostgreSQL inlined it and summed each
--      group's tail three times, once per use. With the
--      statistics' unordered lists the tails keep the group's statistics they need, and no join finds them again
{% if target is not none %}
{{ target | create_table }} AS
{% endif %}
{% set sorted_counts = sorted_counts | default(true) %}
WITH tails AS MATERIALIZED (
{% if sorted_counts %}
    SELECT gid, s, CAST(coalesce(list_sum(list_slice(counts, list_extract($ls, s), len(counts))), 0) AS HUGEINT) AS tail
{% else %}
    SELECT gid, s, size, n_values, h,
           CAST(coalesce(list_sum(list_slice(list_reverse_sort(counts), list_extract($ls, s), len(counts))), 0)
                + ones - greatest(0, list_extract($ls, s) - 1 - coalesce(len(counts), 0)) AS HUGEINT) AS tail
{% endif %}
    FROM {{ counts | table }}
{% if not sorted_counts %}
    WHERE n_values >= $min_values
{% endif %}
), t AS (
    SELECT g.gid, g.s, g.size, false AS ok, 'infinity'::DOUBLE AS severity
    FROM {{ stats | table }} AS g
    WHERE g.n_values < $min_values
    UNION ALL
    SELECT g.gid, g.s, g.size,
           g.n_values >= list_extract($ls, g.s) AND CAST(g.h AS HUGEINT) * $c_den < $c_num * {% if sorted_counts %}x{% else %}g{% endif %}.tail AS ok,
           CASE WHEN {% if sorted_counts %}x{% else %}g{% endif %}.tail = 0 THEN 'infinity'::DOUBLE
                ELSE CAST(g.h AS DOUBLE) / CAST({% if sorted_counts %}x{% else %}g{% endif %}.tail AS DOUBLE) END AS severity
{% if sorted_counts %}
    FROM {{ stats | table }} AS g
    JOIN tails AS x ON x.gid = g.gid AND x.s = g.s
    WHERE g.n_values >= $min_values
{% else %}
    FROM tails AS g
{% endif %}
)
{% if one_sa | default(false) %}
SELECT gid, size, ok, severity FROM t
{% else %}
SELECT gid, max(size) AS size, bool_and(ok) AS ok, max(severity) AS severity
FROM t
GROUP BY gid
{% endif %}
