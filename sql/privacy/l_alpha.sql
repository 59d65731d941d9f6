-- purpose: (l,alpha)-diversity verdict per group: >= l distinct values, group weight >= alpha (exact), plus the entropy or recursive test over categories (or values)
-- params: ls, a_num, a_den, w_den, c_num, c_den
-- returns: creates target(gid, size, ok, severity, weight_num); weight = weight_num / w_den; severity = alpha - weight (as a double) or the failing test
-- ref: SPEC §3.2 (group weight over rows; entropy and recursive over category counts)
{{ target | create_table }} AS
WITH cells AS (
    SELECT hs.gid, hs.s, hs.v, CAST(hs.n AS HUGEINT) AS n, cat.category, cat.p AS w_num
    FROM {{ hist | table }} AS hs
    JOIN {{ categories | table }} AS cat ON cat.s = hs.s AND cat.v IS NOT DISTINCT FROM hs.v
    WHERE NOT hs.unknown
), weights AS (
    SELECT gid, s, sum(n * w_num) AS weight_num FROM cells GROUP BY gid, s
{% if variant != 'distinct' %}
), units AS (
    SELECT gid, s, {% if over == 'categories' %}category{% else %}v{% endif %} AS u, sum(n) AS n
    FROM cells GROUP BY ALL
), unit_stats AS (
    SELECT gid, s,
           count(*) AS q,
{% if variant == 'entropy' %}
           ln(sum(n)) - sum(n * ln(n)) / sum(n) AS entropy
{% else %}
           list(n ORDER BY n DESC) AS counts
{% endif %}
    FROM units GROUP BY gid, s
{% endif %}
), judged AS (
    SELECT g.gid, g.s, g.size, w.weight_num,
           g.n_values >= list_extract($ls, g.s) AS distinct_ok,
           w.weight_num * $a_den >= $a_num * $w_den AS weight_ok,
{% if variant == 'entropy' %}
           u.entropy >= ln(list_extract($ls, g.s)) - 1e-12 AS extra_ok
{% elif variant == 'recursive' %}
           u.q >= list_extract($ls, g.s)
           AND CAST(u.counts[1] AS HUGEINT) * $c_den
               < $c_num * CAST(coalesce(list_sum(list_slice(u.counts, list_extract($ls, g.s), len(u.counts))), 0) AS HUGEINT) AS extra_ok
{% else %}
           true AS extra_ok
{% endif %}
    FROM {{ stats | table }} AS g
    JOIN weights AS w ON w.gid = g.gid AND w.s = g.s
{% if variant != 'distinct' %}
    JOIN unit_stats AS u ON u.gid = g.gid AND u.s = g.s
{% endif %}
)
SELECT gid,
       max(size) AS size,
       bool_and(distinct_ok AND weight_ok AND extra_ok) AS ok,
       max(CASE WHEN distinct_ok AND weight_ok AND extra_ok THEN 0.0
                WHEN NOT distinct_ok THEN 3.0
                WHEN NOT weight_ok THEN 2.0 + (CAST($a_num AS DOUBLE) / $a_den - CAST(weight_num AS DOUBLE) / $w_den)
                ELSE 1.0 END) AS severity,
       min(weight_num) AS weight_num
FROM judged
GROUP BY gid
