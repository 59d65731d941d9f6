-- purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs)
-- params: none
-- returns: creates target(attr, label, value, num)
-- ref: metrics/cover.sql, whose rows this is; Spark runs the range join (num between lo and hi) as a broadcast nested loop over
--      every label and value of the attribute, quadratic where a QI has a value per row (decision 0038; bench/results/history.md,
--      "Round 24: PostgreSQL on the shapes"): the intervals read their values' ranks instead, exploded from a sequence
{{ target | create_table }} AS
{% set explode = true %}
{% include "_macros/cover_by_ranks.sql" %}
