-- purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l
-- params: ls, c_num, c_den
-- returns: creates target(gid, size, ok, severity); severity = r1 / tail (tail 0 = +inf)
-- ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); a group without a counts row (fewer values than the smallest l) skips the list sum, which PostgreSQL runs as a subquery per row
{{ target | create_table }} AS
WITH t AS (
    SELECT g.gid, g.s, g.size, g.n_values, list_extract($ls, g.s) AS l,
           CAST(g.h AS HUGEINT) AS r1,
           CAST(CASE WHEN c.gid IS NULL THEN 0
                     ELSE coalesce(list_sum(list_slice(c.counts, list_extract($ls, g.s), len(c.counts))), 0)
                END AS HUGEINT) AS tail
    FROM {{ stats | table }} AS g
    LEFT JOIN {{ counts | table }} AS c ON c.gid = g.gid AND c.s = g.s
)
SELECT gid,
       max(size) AS size,
       bool_and(n_values >= l AND r1 * $c_den < $c_num * tail) AS ok,
       max(CASE WHEN tail = 0 THEN 'infinity'::DOUBLE ELSE CAST(r1 AS DOUBLE) / CAST(tail AS DOUBLE) END) AS severity
FROM t
GROUP BY gid
