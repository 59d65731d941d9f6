-- purpose: the group statistics of a written release's partition (by group id, or by QI label vector with hashed ids) straight from the release aggregate: partition/group_stats.sql over release/verify_hist.sql's rows, the histogram an inner aggregation never stored; with each group's known-value counts as partition/source_stats.sql keeps them
-- params: none
-- hints: many-groups
-- returns: creates target(gid, s, size, n_values, h, known, entropy, collided, counts, ones) as partition/source_stats.sql; with listed false, without counts and ones (partition/group_stats.sql's columns)
-- ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels); for an engine that takes statistics from
--      the source (Database.stats_from_source): TP+ at 1M on PostgreSQL, the histograms of both partitions and their
--      statistics took four statements and two stored tables. Not for exact ranks of label vectors (after a hash collision:
--      release/verify_hist.sql, then partition/group_stats.sql). listed false: the statistics by group id of an aggregate
--      whose rows are the histogram's (one_row_each), on an engine that stores the histogram only when a model reads it
--      (pipeline/verify.py WrittenPartition: the copy of the aggregate it would be is not made for the statistics alone)
{{ target | create_table }} AS
{% set from_source = true %}
{% set rows_macro = "_macros/verify_rows.sql" %}
{% include "_macros/group_aggregate.sql" %}
