{#- Included fragment (not a statement): CTEs of a t-closeness template over the group statistics: ``tot``
    (per SA: the baseline's rows bt and values bm), ``grp`` (per group and SA: size, n_values, known rows
    m, bt, bm), ``single`` (the groups of one known value v: their distance's numerator m·pt(v), and
    whether v is no baseline value) and ``multi`` (the groups of several values, which the template
    measures over its grid). Context: hist, stats, baseline. -#}
tot AS (
    SELECT s, CAST(sum(n) AS HUGEINT) AS bt, CAST(count(*) AS HUGEINT) AS bm
    FROM {{ baseline | table }}
    GROUP BY s
), grp AS (
    SELECT g.gid, g.s, g.size, g.n_values, CAST(g.known AS HUGEINT) AS m, t.bt, t.bm
    FROM {{ stats | table }} AS g
    JOIN tot AS t ON t.s = g.s
), single AS (
    SELECT g.gid, g.s, g.size, g.m, g.bt, g.bm, g.m * coalesce(b.pt, 0) AS num, b.s IS NULL AS stray
    FROM grp AS g
    JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
    LEFT JOIN {{ baseline | table }} AS b ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
    WHERE g.n_values = 1
), multi AS (
    SELECT * FROM grp WHERE n_values > 1
)
