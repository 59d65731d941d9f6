-- purpose: write a suppression release (TP Definition 1): each QI labelled, per group, with its value when all rows of the group agree, '*' otherwise; SA as published (NULL where suppressed), the group id; deleted rows left out
-- params: none
-- returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values; without the group column as release/write.sql
-- ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); DESIGN §6 (as release/write.sql, whose statement this is with the
--      labels computed in it). min = max with no NULL is 'all rows agree'; the labels are window aggregates over each group's rows,
--      which the ORDER BY sorts by group anyway (on PostgreSQL cheaper than a labels statement and the write).
--      as_text (per QI): its values compared as text, for a column that
--      is not a number, whose type PostgreSQL may have no min/max for (boolean, uuid); the label is that text either way
{% set fused = true %}
CREATE TABLE {{ output | table }} AS
{% include "_macros/release_write.sql" %}
