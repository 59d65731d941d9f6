-- purpose: install the DuckDB table macro ldiv.class_stats(table, qi, sa): per class (equal QI values), its size, distinct SA values, top count, entropy and the descending SA counts
-- params: none
-- returns: creates macro ldiv.class_stats returning (the QI columns, class_size, distinct_values, top_count, entropy, counts); an unknown or doubled column is an error naming the argument
-- ref: issue 55 item 2; SPEC §0.1 (classes, h), §0.2 (entropy, natural log). NULL is a value of its own (ldiv check --null-as-value). Names match the table's columns case-insensitively; the table is read by query_table, which parses a qualified or quoted name
CREATE OR REPLACE MACRO ldiv.class_stats(t, qi, sa) AS TABLE
WITH found AS (
    SELECT len(json_keys(to_json(struct_pack(*COLUMNS(lambda c: list_contains(list_transform(qi, lambda q: lower(q)), lower(c))))))) AS qi_found,
           len(json_keys(to_json(struct_pack(*COLUMNS(lambda c: lower(c) = lower(sa)))))) AS sa_found
    FROM query_table(t)
    LIMIT 1
), guard AS (
    SELECT CASE
        WHEN list_contains(list_transform(qi, lambda q: lower(q)), lower(sa))
            THEN error('ldiv: the SA ' || sa || ' is also given as a quasi-identifier')
        WHEN len(list_distinct(list_transform(qi, lambda q: lower(q)))) <> len(qi)
            THEN error('ldiv: a quasi-identifier is named twice in ' || CAST(qi AS VARCHAR))
        WHEN qi_found <> len(qi)
            THEN error('ldiv: a quasi-identifier in ' || CAST(qi AS VARCHAR) || ' is not a column of ' || t)
        WHEN sa_found <> 1
            THEN error('ldiv: the SA ' || sa || ' is not a column of ' || t)
        ELSE true
    END AS ok
    FROM found
), cells AS (
    SELECT COLUMNS(lambda c: list_contains(list_transform(qi, lambda q: lower(q)), lower(c))),
           COLUMNS(lambda c: lower(c) = lower(sa)) AS ldiv_sa_value,
           count(*) AS ldiv_n
    FROM query_table(t)
    WHERE coalesce((SELECT bool_and(ok) FROM guard), true)
    GROUP BY ALL
)
SELECT COLUMNS(lambda c: list_contains(list_transform(qi, lambda q: lower(q)), lower(c))),
       CAST(sum(ldiv_n) AS BIGINT) AS class_size,
       count(*) AS distinct_values,
       max(ldiv_n) AS top_count,
       ln(sum(ldiv_n)) - sum(ldiv_n * ln(ldiv_n)) / sum(ldiv_n) AS entropy,
       list(ldiv_n ORDER BY ldiv_n DESC) AS counts
FROM cells
GROUP BY ALL
