-- purpose: per group and SA: size, distinct values, pillar height, entropy, and a collision flag for the hashed group ids
-- params: none
-- hints: many-groups
-- returns: creates target(gid, s, size, n_values, h, known, entropy, collided); rows with an unknown SA count in size only; collided = two key tuples share this gid
-- ref: SPEC §0.1 (h), §0.2 (entropy with natural log); one aggregation over the compressed histogram. Counts are summed as
--      DOUBLE, exact below 2^53 rows in any order: PostgreSQL sums BIGINT as NUMERIC, which took half of this statement there
{{ target | create_table }} AS
SELECT
    gid,
    s,
    size,
    n_values,
    h,
    CAST(known AS BIGINT) AS known,
    CASE WHEN n_values = 0 THEN NULL ELSE greatest(0.0, ln(known) - n_ln_n / known) END AS entropy,
    collided
FROM (
    SELECT
        gid,
        s,
        CAST(sum(CAST(n AS DOUBLE)) AS BIGINT) AS size,
        count(*) FILTER (WHERE NOT unknown) AS n_values,
        CAST(coalesce(max(n) FILTER (WHERE NOT unknown), 0) AS BIGINT) AS h,
        coalesce(sum(CAST(n AS DOUBLE)) FILTER (WHERE NOT unknown), 0) AS known,
        sum(n * ln(n)) FILTER (WHERE NOT unknown) AS n_ln_n,
        min(gid2) <> max(gid2) AS collided
    FROM {{ hist | table }}
    GROUP BY gid, s
) AS g
