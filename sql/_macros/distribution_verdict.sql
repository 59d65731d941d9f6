{#- Included fragment (not a statement): the per-group verdict of a distribution model from CTE ``d``
    (gid, s, ok, severity, num, den: one row per group and SA with a known value), as (gid, size, ok,
    severity, num, den): every SA must pass; a group with no known value of an SA has no distribution and
    fails; num/den is the worst SA's measure. Context: stats. -#}
SELECT g.gid,
       CAST(max(g.size) AS BIGINT) AS size,
       bool_and(coalesce(d.ok, false)) AS ok,
       max(coalesce(d.severity, 'infinity'::DOUBLE)) AS severity,
       arg_max(d.num, coalesce(d.severity, 'infinity'::DOUBLE)) AS num,
       arg_max(d.den, coalesce(d.severity, 'infinity'::DOUBLE)) AS den
FROM {{ stats | table }} AS g
LEFT JOIN d ON d.gid = g.gid AND d.s = g.s
GROUP BY g.gid
