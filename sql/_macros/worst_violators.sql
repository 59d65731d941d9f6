{#- Included fragment (not a statement): the violating groups of a verdict, worst first (severity, then
    size, then id), at most $worst, as (gid, severity, size). Context: verdict. -#}
SELECT gid, CAST(severity AS DOUBLE) AS severity, CAST(size AS BIGINT) AS size
FROM {{ verdict | table }}
WHERE NOT ok
ORDER BY severity DESC, size DESC, gid
LIMIT $worst
