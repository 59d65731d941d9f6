-- purpose: partition/recursive_profile.sql over the descending counts of partition/stats_counts.sql (the groups with at least 2 values) computed from the source inside the same statement, never stored
-- params: max_l, max_ls, parts, part
-- returns: as partition/recursive_profile.sql
-- ref: SPEC §0.2; issue 57 item 1, round 4: the statistics of a check on a small DuckDB source are not stored (partition/source_shapes.sql), so a check whose distinct l is 2 or more reads the counts its profile needs here, in one statement, where a stored table's counts were a second statement. counts names the CTE
WITH {{ counts | table }} AS (
    SELECT gid, s, list_reverse_sort(counts) AS counts, ones
    FROM (
{% set from_source = true %}
{% include "_macros/group_aggregate.sql" %}

    ) AS g
    WHERE n_values >= 2
)
{% set with_open = true %}
{% include "partition/recursive_profile.sql" %}
