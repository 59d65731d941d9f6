-- purpose: per group and SA: size, distinct values, pillar height and pillar count, entropy, counts in descending order
-- params: none
-- returns: creates target(gid, s, size, n_values, h, pillars, known, entropy, counts); rows with an unknown (NULL) SA count in size only
-- ref: SPEC §0.1 (h, pillars), §0.2 (entropy with natural log), BSGI/TP pillar height
{{ target | create_table }} AS
WITH w AS (
    SELECT gid, s, v, n, max(n) FILTER (WHERE v IS NOT NULL) OVER (PARTITION BY gid, s) AS hmax
    FROM {{ hist | table }}
)
SELECT
    gid,
    s,
    CAST(sum(n) AS BIGINT) AS size,
    count(v) AS n_values,
    CAST(coalesce(max(hmax), 0) AS BIGINT) AS h,
    count(v) FILTER (WHERE n = hmax) AS pillars,
    CAST(coalesce(sum(n) FILTER (WHERE v IS NOT NULL), 0) AS BIGINT) AS known,
    CASE WHEN count(v) = 0 THEN NULL
         ELSE ln(sum(n) FILTER (WHERE v IS NOT NULL))
              - sum(n * ln(n)) FILTER (WHERE v IS NOT NULL) / sum(n) FILTER (WHERE v IS NOT NULL)
    END AS entropy,
    coalesce(list(n ORDER BY n DESC) FILTER (WHERE v IS NOT NULL), []) AS counts
FROM w
GROUP BY gid, s
