-- purpose: partition/shapes.sql (with the model's verdict read inline, or without a verdict) over the group statistics of partition/source_stats.sql computed inside the same statement, never stored: the shapes, the violations and the worst groups of a check in one statement from the source
-- params: worst, ls, c_num, c_den, min_values, parts, part
-- returns: as partition/shapes.sql
-- ref: DESIGN §5 (compress first; fewer passes); issue 57 item 1, round 4: on a small DuckDB source (Database.inline_statistics) a check's statistics were a table written, read by one statement and dropped; here they are that statement's MATERIALIZED CTE (named by stats). The recursive profile, when the distinct l allows one, is partition/source_profile.sql
WITH {{ stats | table }} AS MATERIALIZED (
{% set from_source = true %}
{% include "_macros/group_aggregate.sql" %}

)
{% set with_open = true %}
{% include "partition/shapes.sql" %}
