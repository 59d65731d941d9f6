-- purpose: install the DuckDB table macro ldiv.violations(table, qi, sa, model, n): the classes that violate a privacy model with one parameter n
-- params: none
-- returns: creates macro ldiv.violations returning the violating classes as ldiv.class_stats does without its counts (QI columns, class_size, distinct_values, top_count, entropy), largest first; models: k-anonymity (n = k), distinct, entropy, frequency, unique-distinct, lplus (n = l; lplus: theta = 1/l for every value, as ldiv check --model lplus --l n); another name is an error
-- ref: issue 55 item 2; SPEC §0.2 (distinct: >= l values; entropy >= ln l, tolerance 1e-12; frequency (l-eligible): l·h <= |G|), §2.1 (Unique Distinct), §5.1 (l+ with theta = 1/l for every value: l·h <= |G|; a theta per value needs a value table, not expressed here); the comparisons are exact on integers and decimals, as the privacy/ templates'. The counts list is left out, so DuckDB does not build it (bench/README.md, SQL functions)
CREATE OR REPLACE MACRO ldiv.violations(t, qi, sa, model, n) AS TABLE
SELECT * EXCLUDE (counts)
FROM ldiv.class_stats(t, qi, sa)
WHERE NOT CASE lower(replace(model, '_', '-'))
        WHEN 'k-anonymity' THEN class_size >= n
        WHEN 'distinct' THEN distinct_values >= n
        WHEN 'entropy' THEN entropy >= ln(n) - 1e-12
        WHEN 'frequency' THEN n * top_count <= class_size
        WHEN 'unique-distinct' THEN class_size = distinct_values AND distinct_values >= n
        WHEN 'lplus' THEN n * top_count <= class_size
        ELSE error('ldiv: unknown model ' || model || ' (k-anonymity, distinct, entropy, frequency, unique-distinct, lplus; recursive: ldiv.recursive_violations)')
    END
ORDER BY class_size DESC
