-- purpose: install the DuckDB table macro ldiv.l_diversity(table, qi, sa): the privacy statistics of a table's classes, as ldiv check reports them
-- params: none
-- returns: creates macro ldiv.l_diversity returning one row (classes, rows, k, distinct_l, entropy_l, frequency_l); no row's statistics for an empty table: classes 0, the others NULL
-- ref: issue 55 item 2; ldiv check --json (classes, rows, k, distinct_l, entropy_l = exp of the smallest class entropy, frequency_l = min |G|/h(G)); SPEC §0.2
CREATE OR REPLACE MACRO ldiv.l_diversity(t, qi, sa) AS TABLE
SELECT count(*) AS classes,
       CAST(coalesce(sum(class_size), 0) AS BIGINT) AS rows,
       min(class_size) AS k,
       min(distinct_values) AS distinct_l,
       exp(min(entropy)) AS entropy_l,
       min(CAST(class_size AS DOUBLE) / top_count) AS frequency_l
FROM ldiv.class_stats(t, qi, sa)
