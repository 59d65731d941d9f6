-- purpose: write a suppression release (TP Definition 1): each QI labelled, per group, with its value when all rows of the group agree, '*' otherwise; SA as published (NULL where suppressed), the group id; deleted rows left out
-- params: none
-- returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values; without the group column as release/write.sql
-- ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); DESIGN §6 (as release/write.sql, whose statement this is with the
--      labels computed in it, on PostgreSQL cheaper than a labels statement and the write). min = max with no NULL is 'all rows
--      agree', decided per group by one GROUP BY on integers: a number QI's own values; a text QI's values as codes (the
--      rank of the value among the column's distinct values, NULL one of them), the label's text looked up once per group
--      (text min / max over every row cost more than the rows' join, sort and store together; decision 0033, Round 6).
--      as_text (per QI): its values compared as text, for a column that
--      is not a number, whose type PostgreSQL may have no min/max for (boolean, uuid); the label is that text either way
--      stars (optional): the algorithm's flags of the groups whose rows disagree on some QI (TP+ and Hilbert); each row is then
--      labelled from its own value and its group's flags, with no grouping of the rows (_macros/release_write.sql)
{% set fused = true %}
CREATE TABLE {{ output | table }} AS
{% include "_macros/release_write.sql" %}
