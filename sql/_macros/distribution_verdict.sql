{#- Included fragment (not a statement): the per-group verdict of a distribution model from CTE ``d``
    (gid, s, size, ok, severity, num, den: one row per group and SA), as (gid, size, ok, severity, num,
    den): every SA must pass, num/den is the worst SA's measure. With one SA (one_sa) d is that already. -#}
{% if one_sa %}
SELECT gid, CAST(size AS BIGINT) AS size, ok, severity, num, den
FROM d
{% else %}
SELECT gid,
       CAST(max(size) AS BIGINT) AS size,
       bool_and(ok) AS ok,
       max(severity) AS severity,
       arg_max(num, severity) AS num,
       arg_max(den, severity) AS den
FROM d
GROUP BY gid
{% endif %}
