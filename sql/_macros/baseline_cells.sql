{#- Included fragment (not a statement): CTEs ``tot`` (per SA: the baseline's rows bt and values bm) and
    ``cells`` (per group, SA and known value: its rows n, the value's baseline rows bn (0: not a baseline
    value), rank r, the group's known rows m, bt and bm), all counts HUGEINT. Context: hist, stats,
    baseline. -#}
tot AS (
    SELECT s, CAST(sum(n) AS HUGEINT) AS bt, CAST(count(*) AS HUGEINT) AS bm
    FROM {{ baseline | table }}
    GROUP BY s
), cells AS (
    SELECT hs.gid, hs.s, CAST(hs.n AS HUGEINT) AS n, CAST(coalesce(b.n, 0) AS HUGEINT) AS bn, b.r,
           CAST(g.known AS HUGEINT) AS m, t.bt, t.bm
    FROM {{ hist | table }} AS hs
    JOIN {{ stats | table }} AS g ON g.gid = hs.gid AND g.s = hs.s
    JOIN tot AS t ON t.s = hs.s
    LEFT JOIN {{ baseline | table }} AS b ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
    WHERE NOT hs.unknown
)
