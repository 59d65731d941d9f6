/* purpose: install the DuckDB table macro ldiv.class_stats(table, qi, sa): per class (equal QI values), its size, distinct SA values, top count, entropy and the descending SA counts */
/* params: none */
/* returns: creates macro ldiv.class_stats returning (the QI columns, class_size, distinct_values, top_count, entropy, counts); an unknown or doubled column is an error naming the argument */
/* ref: issue 55 item 2; SPEC §0.1 (classes, h), §0.2 (entropy, natural log). NULL is a value of its own (ldiv check --null-as-value). Names match the table's columns case-insensitively; the table is read by query_table, which parses a qualified or quoted name */
CREATE OR REPLACE MACRO ldiv.class_stats(
    t,
    qi,
    sa
) AS TABLE
WITH found AS (
  SELECT
    LENGTH(
      JSON_KEYS(
        TO_JSON(
          {'_0': *COLUMNS(LAMBDA c : ARRAY_CONTAINS(LIST_TRANSFORM(qi, LAMBDA q : LOWER(q)), LOWER(c)))}
        )
      )
    ) AS qi_found,
    LENGTH(JSON_KEYS(TO_JSON({'_0': *COLUMNS(LAMBDA c : LOWER(c) = LOWER(sa))}))) AS sa_found
  FROM QUERY_TABLE(t)
  LIMIT 1
), guard AS (
  SELECT
    CASE
      WHEN ARRAY_CONTAINS(LIST_TRANSFORM(qi, LAMBDA q : LOWER(q)), LOWER(sa))
      THEN ERROR('ldiv: the SA ' || sa || ' is also given as a quasi-identifier')
      WHEN LENGTH(LIST_DISTINCT(LIST_TRANSFORM(qi, LAMBDA q : LOWER(q)))) <> LENGTH(qi)
      THEN ERROR('ldiv: a quasi-identifier is named twice in ' || CAST(qi AS TEXT))
      WHEN qi_found <> LENGTH(qi)
      THEN ERROR(
        'ldiv: a quasi-identifier in ' || CAST(qi AS TEXT) || ' is not a column of ' || t
      )
      WHEN sa_found <> 1
      THEN ERROR('ldiv: the SA ' || sa || ' is not a column of ' || t)
      ELSE TRUE
    END AS ok
  FROM found
), cells AS (
  SELECT
    COLUMNS(LAMBDA c : ARRAY_CONTAINS(LIST_TRANSFORM(qi, LAMBDA q : LOWER(q)), LOWER(c))),
    COLUMNS(LAMBDA c : LOWER(c) = LOWER(sa)) AS ldiv_sa_value,
    COUNT(*) AS ldiv_n
  FROM QUERY_TABLE(t)
  WHERE
    COALESCE((
      SELECT
        BOOL_AND(CAST(ok AS BOOLEAN))
      FROM guard
    ), TRUE)
  GROUP BY ALL
)
SELECT
  COLUMNS(LAMBDA c : ARRAY_CONTAINS(LIST_TRANSFORM(qi, LAMBDA q : LOWER(q)), LOWER(c))),
  CAST(SUM(ldiv_n) AS BIGINT) AS class_size,
  COUNT(*) AS distinct_values,
  MAX(ldiv_n) AS top_count,
  LN(SUM(ldiv_n)) - SUM(ldiv_n * LN(ldiv_n)) / SUM(ldiv_n) AS entropy,
  ARRAY_AGG(ldiv_n ORDER BY ldiv_n DESC) AS counts
FROM cells
GROUP BY ALL
