/* purpose: install the PostgreSQL function ldiv.violations(table, qi, sa, model, n): the classes that violate a privacy model with one parameter n */
/* params: none */
/* returns: creates function ldiv.violations(text, text[], text, text, numeric) returning the violating classes as ldiv.class_stats does without its counts, largest first; an unknown model is an error */
/* ref: issue 55 item 2; the DuckDB macro's twin (functions/violations.sql); numeric comparisons are exact */
CREATE OR REPLACE FUNCTION ldiv.violations(
    tbl TEXT,
    qi TEXT[],
    sa TEXT,
    model TEXT,
    n DECIMAL(18, 3)
)
RETURNS TABLE (
  class JSONB,
  class_size BIGINT,
  distinct_values BIGINT,
  top_count BIGINT,
  entropy DOUBLE PRECISION
)
LANGUAGE plpgsql
STABLE AS
$$
DECLARE
    m TEXT := lower(replace(model, '_', '-'));
BEGIN
    IF m NOT IN ('k-anonymity', 'distinct', 'entropy', 'frequency', 'unique-distinct', 'lplus') THEN
        RAISE EXCEPTION 'ldiv: unknown model % (k-anonymity, distinct, entropy, frequency, unique-distinct, lplus; recursive: ldiv.recursive_violations)', model;
    END IF;
    RETURN QUERY
    SELECT s.class, s.class_size, s.distinct_values, s.top_count, s.entropy FROM ldiv.class_stats(tbl, qi, sa) AS s
    WHERE NOT CASE m
        WHEN 'k-anonymity' THEN s.class_size >= n
        WHEN 'distinct' THEN s.distinct_values >= n
        WHEN 'entropy' THEN s.entropy >= ln(n::DOUBLE PRECISION) - 1e-12
        WHEN 'frequency' THEN n * s.top_count <= s.class_size
        WHEN 'unique-distinct' THEN s.class_size = s.distinct_values AND s.distinct_values >= n
        ELSE n * s.top_count <= s.class_size
    END
    ORDER BY s.class_size DESC;
END
$$
