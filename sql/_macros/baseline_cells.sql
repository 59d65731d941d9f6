{#- Included fragment (not a statement): CTEs ``tot`` (per SA: the baseline's rows bt and values bm) and
    ``cells`` (per histogram row: gid, s, unknown, its rows n, the value's baseline rows bn (0: an unknown
    row or a value the baseline lacks), rank r, the group's known rows m, bt and bm), counts HUGEINT. m
    comes from a window over the group's rows, not from a join with the statistics: one pass fewer over
    the groups. Context: hist, baseline. -#}
tot AS (
    SELECT s, CAST(sum(n) AS HUGEINT) AS bt, CAST(count(*) AS HUGEINT) AS bm
    FROM {{ baseline | table }}
    GROUP BY s
), cells AS (
    SELECT hs.gid, hs.s, hs.unknown, CAST(hs.n AS HUGEINT) AS n,
           CAST(CASE WHEN hs.unknown THEN 0 ELSE coalesce(b.n, 0) END AS HUGEINT) AS bn, b.r,
           CAST(sum(CASE WHEN hs.unknown THEN 0 ELSE hs.n END) OVER (PARTITION BY hs.gid, hs.s) AS HUGEINT) AS m,
           t.bt, t.bm
    FROM {{ hist | table }} AS hs
    JOIN tot AS t ON t.s = hs.s
    LEFT JOIN {{ baseline | table }} AS b ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
)
