/* purpose: install the PostgreSQL function ldiv.recursive_violations(table, qi, sa, l, c): the classes that violate recursive (c,l)-diversity */
/* params: none */
/* returns: creates function ldiv.recursive_violations(text, text[], text, integer, numeric) returning the violating classes as ldiv.class_stats does, largest first */
/* ref: issue 55 item 2; the DuckDB macro's twin (functions/recursive_violations.sql); exact numeric comparison */
CREATE OR REPLACE FUNCTION ldiv.recursive_violations(
    tbl TEXT,
    qi TEXT[],
    sa TEXT,
    l INT,
    c DECIMAL(18, 3)
)
RETURNS TABLE (
  class JSONB,
  class_size BIGINT,
  distinct_values BIGINT,
  top_count BIGINT,
  entropy DOUBLE PRECISION,
  counts BIGINT[]
)
LANGUAGE sql
STABLE AS
$$
    SELECT s.* FROM ldiv.class_stats(tbl, qi, sa) AS s
    WHERE NOT (s.distinct_values >= l
               AND s.top_count < c * coalesce((SELECT sum(x) FROM unnest(s.counts[l:]) AS x), 0))
    ORDER BY s.class_size DESC
$$
