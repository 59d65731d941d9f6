{#- Included fragment (not a statement): per group, SA and known value, its count, the group size and the
    value's threshold p/q (default $p_default/$q_default). Context: hist, stats, thresholds. -#}
c AS (
    SELECT hs.gid, hs.s, hs.v, CAST(hs.n AS HUGEINT) AS n, CAST(g.size AS HUGEINT) AS size,
           coalesce(th.p, $p_default) AS p, coalesce(th.q, $q_default) AS q
    FROM {{ hist | table }} AS hs
    JOIN {{ stats | table }} AS g ON g.gid = hs.gid AND g.s = hs.s
    LEFT JOIN {{ thresholds | table }} AS th ON th.s = hs.s AND th.v IS NOT DISTINCT FROM hs.v
    WHERE NOT hs.unknown
)
