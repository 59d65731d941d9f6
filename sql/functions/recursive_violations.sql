-- purpose: install the DuckDB table macro ldiv.recursive_violations(table, qi, sa, l, c): the classes that violate recursive (c,l)-diversity
-- params: none
-- returns: creates macro ldiv.recursive_violations returning the violating classes as ldiv.class_stats does, largest first
-- ref: issue 55 item 2; SPEC §0.2 (recursive (c,l): r1 < c·(r_l + ... + r_q), fails when q < l); exact on integers and decimals, as privacy/recursive.sql
CREATE OR REPLACE MACRO ldiv.recursive_violations(t, qi, sa, l, c) AS TABLE
SELECT *
FROM ldiv.class_stats(t, qi, sa)
WHERE NOT (distinct_values >= l
           AND top_count < c * coalesce(list_sum(list_slice(counts, l, len(counts))), 0))
ORDER BY class_size DESC
