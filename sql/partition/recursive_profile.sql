-- purpose: the strongest recursive (c,l) per SA s and l: for each l in 2..$max_ls[s] (that SA's distinct l; $max_l is their maximum) the groups maximizing r1 / (r_l + ... + r_q)
-- params: max_l, max_ls
-- returns: s, l, candidates (list of [r1, tail] within 1e-9 of the maximum ratio; exact choice in Python)
-- ref: SPEC §0.2 (recursive (c,l): r1 < c·(r_l + … + r_q)); holds for every c > max ratio; max_l ≤ every group's distinct count.
--      counts: descending, with the group's `ones` values counted once after them (none in partition/group_counts.sql's
--      lists, left out of partition/stats_counts.sql's): the tail from l is the listed counts' from l plus the ones, less
--      those among the first l - 1.
--      Linear in the counts (issue 57, "no pathologies"): a list of more than 32 counts is unnested once, its tails
--      running sums in ascending order (the sum of the m - l + 1 smallest is the tail from position l; a frame ending at
--      the current row, which every engine sums in one pass); a shorter one is summed per l as a slice (to l - 1 at
--      least: past the list an empty slice, where Spark refuses a negative length), cheaper than a sort for a few
--      values. Only short lists go through the cross join with l, which copies a list per row. profile_groups is
--      MATERIALIZED: PostgreSQL would read each list's length and first count per (group, l), not once per group
{% if with_open | default(false) %}, {% else %}WITH {% endif %}profile_groups AS MATERIALIZED (
    SELECT
        gid,
        s,
        list_extract($max_ls, s) AS top,
        coalesce(counts[1], 1) AS r1,
        coalesce(len(counts), 0) AS m,
        ones,
        CASE WHEN len(counts) <= 32 THEN counts END AS short_counts,
        CASE WHEN len(counts) > 32 THEN counts END AS long_counts
    FROM {{ counts | table }}
    WHERE list_extract($max_ls, s) >= 2
), long_tails AS (
    SELECT
        s,
        top,
        r1,
        ones,
        m + 1 - row_number() OVER (PARTITION BY gid, s ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS l,
        sum(n) OVER (PARTITION BY gid, s ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS listed_tail
    FROM (SELECT gid, s, top, r1, m, ones, unnest(long_counts) AS n FROM profile_groups WHERE m > 32) AS u
), t AS (
    SELECT
        g.s,
        CAST(ls.l AS INTEGER) AS l,
        g.r1,
        coalesce(list_sum(list_slice(g.short_counts, CAST(ls.l AS INTEGER), greatest(g.m, CAST(ls.l AS INTEGER) - 1))), 0)
            + g.ones
            - greatest(0, CAST(ls.l AS INTEGER) - 1 - g.m) AS tail
    FROM profile_groups AS g
    CROSS JOIN range(2, $max_l + 1) AS ls(l)
    WHERE ls.l <= g.top AND (g.m <= 32 OR ls.l > g.m)
    UNION ALL
    SELECT s, CAST(l AS INTEGER) AS l, r1, listed_tail + ones AS tail
    FROM long_tails
    WHERE l >= 2 AND l <= top
), r AS (
    SELECT *, r1 / tail AS ratio, max(r1 / tail) OVER (PARTITION BY s, l) AS max_ratio FROM t
)
SELECT s, l, list(DISTINCT [r1, tail]) AS candidates
FROM r
WHERE ratio >= max_ratio * (1 - 1e-9)
GROUP BY s, l
ORDER BY s, l
