-- purpose: an empty per-value parameter table (thresholds p/q, or category and weight numerator), filled by the controller
-- params: none
-- returns: creates target(s, v, p, q, category)
-- ref: SPEC §0.3 (thresholds as exact fractions p/q), §3.1 (categories and weights)
{{ target | create_table }} (
    s INTEGER NOT NULL,
    v VARCHAR,                -- NULL: the NULL value (with --null-as-value)
    p HUGEINT NOT NULL,
    q HUGEINT NOT NULL,
    category INTEGER
)
