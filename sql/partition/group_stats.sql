-- purpose: per group and SA: size, distinct values, pillar height, entropy, and a collision flag for the hashed group ids
-- params: none
-- returns: creates target(gid, s, size, n_values, h, known, entropy, collided); rows with an unknown SA count in size only; collided = two key tuples share this gid
-- ref: SPEC §0.1 (h), §0.2 (entropy with natural log); one aggregation over the compressed histogram
{{ target | create_table }} AS
SELECT
    gid,
    s,
    CAST(sum(n) AS BIGINT) AS size,
    count(*) FILTER (WHERE NOT unknown) AS n_values,
    CAST(coalesce(max(n) FILTER (WHERE NOT unknown), 0) AS BIGINT) AS h,
    CAST(coalesce(sum(n) FILTER (WHERE NOT unknown), 0) AS BIGINT) AS known,
    CASE WHEN count(*) FILTER (WHERE NOT unknown) = 0 THEN NULL
         ELSE greatest(0.0, ln(sum(n) FILTER (WHERE NOT unknown))
                            - sum(n * ln(n)) FILTER (WHERE NOT unknown) / sum(n) FILTER (WHERE NOT unknown))
    END AS entropy,
    min(gid2) <> max(gid2) AS collided
FROM {{ hist | table }}
GROUP BY gid, s
