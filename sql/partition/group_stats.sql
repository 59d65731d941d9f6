-- purpose: per group and SA: size, distinct values, pillar height, entropy, and a collision flag for the hashed group ids
-- params: none
-- hints: many-groups
-- returns: creates target(gid, s, size, n_values, h, known, entropy, collided); rows with an unknown SA count in size only; collided = two key tuples share this gid
-- ref: SPEC §0.1 (h), §0.2 (entropy with natural log); one aggregation over the compressed histogram. Counts are summed as
--      DOUBLE, exact below 2^53 rows in any order: PostgreSQL sums BIGINT as NUMERIC, which took half of this statement there
{{ target | create_table }} AS
{% set from_source = false %}
{% include "_macros/group_aggregate.sql" %}
