-- purpose: the strongest recursive (c,l) per SA s and l: for each l in 2..$max_ls[s] (that SA's distinct l; $max_l is their maximum) the groups maximizing r1 / (r_l + ... + r_q)
-- params: max_l, max_ls
-- returns: s, l, candidates (list of [r1, tail] within 1e-9 of the maximum ratio; exact choice in Python)
-- ref: SPEC §0.2 (recursive (c,l): r1 < c·(r_l + … + r_q)); holds for every c > max ratio; max_l ≤ every group's distinct count.
--      counts: descending, with the group's `ones` values counted once after them (none in partition/group_counts.sql's
--      lists, left out of partition/stats_counts.sql's): the tail from l is the listed counts' from l plus the ones, less
--      those among the first l - 1
{% if with_open | default(false) %}, {% else %}WITH {% endif %}t AS (
    SELECT
        g.s,
        CAST(ls.l AS INTEGER) AS l,
        coalesce(g.counts[1], 1) AS r1,
        coalesce(list_sum(list_slice(g.counts, CAST(ls.l AS INTEGER), len(g.counts))), 0) + g.ones
            - greatest(0, CAST(ls.l AS INTEGER) - 1 - coalesce(len(g.counts), 0)) AS tail
    FROM {{ counts | table }} AS g
    CROSS JOIN range(2, $max_l + 1) AS ls(l)
    WHERE ls.l <= list_extract($max_ls, g.s)
), r AS (
    SELECT *, r1 / tail AS ratio, max(r1 / tail) OVER (PARTITION BY s, l) AS max_ratio FROM t
)
SELECT s, l, list(DISTINCT [r1, tail]) AS candidates
FROM r
WHERE ratio >= max_ratio * (1 - 1e-9)
GROUP BY s, l
ORDER BY s, l
