-- purpose: the group statistics of partition/group_stats.sql straight from the source, the histogram an inner aggregation of the same statement that is never stored; with each group's known-value counts: those above 1 as an unordered list, and how many values are counted once
-- params: parts, part
-- hints: many-groups, read-whole
-- returns: creates target(gid, s, size, n_values, h, known, entropy, collided, counts, ones); as partition/group_stats.sql over partition/histogram.sql with hashed ids, counts = the group's counts above 1 of its known values (no order; NULL when there is none), ones = its known values counted once
-- ref: DESIGN §5 (compress first; fewer passes). For an evaluation that needs only the group statistics (ldiv check):
--      on PostgreSQL a million-row part's histogram, its statistics and the recursive model's counts took
--      three statements and two stored tables. An engine opts in (Database.stats_from_source); the
--      evaluator stores the histogram later if a model asks for it (ldiv_db/core/evaluator.py). read-whole: the check's
--      statements after it aggregate the table or filter it
{{ target | create_table }} AS
{% set from_source = true %}
{% include "_macros/group_aggregate.sql" %}
