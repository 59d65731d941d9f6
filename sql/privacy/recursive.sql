-- purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l
-- params: ls, c_num, c_den
-- returns: creates target(gid, size, ok, severity); severity = r1 / tail (tail 0 = +inf)
-- ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); the tails are summed for the groups with a counts row only (the others have fewer values than the smallest l, and PostgreSQL runs the list sum as a subquery per row); one_sa = a single SA, whose groups need no second aggregation
{{ target | create_table }} AS
WITH tails AS (
    SELECT gid, s, CAST(coalesce(list_sum(list_slice(counts, list_extract($ls, s), len(counts))), 0) AS HUGEINT) AS tail
    FROM {{ counts | table }}
), t AS (
    SELECT g.gid, g.s, g.size,
           CASE WHEN x.gid IS NULL THEN false
                ELSE g.n_values >= list_extract($ls, g.s) AND CAST(g.h AS HUGEINT) * $c_den < $c_num * x.tail
           END AS ok,
           CASE WHEN coalesce(x.tail, 0) = 0 THEN 'infinity'::DOUBLE
                ELSE CAST(g.h AS DOUBLE) / CAST(x.tail AS DOUBLE)
           END AS severity
    FROM {{ stats | table }} AS g
    LEFT JOIN tails AS x ON x.gid = g.gid AND x.s = g.s
)
{% if one_sa | default(false) %}
SELECT gid, size, ok, severity FROM t
{% else %}
SELECT gid, max(size) AS size, bool_and(ok) AS ok, max(severity) AS severity
FROM t
GROUP BY gid
{% endif %}
