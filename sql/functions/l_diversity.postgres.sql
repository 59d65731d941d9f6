-- purpose: install the PostgreSQL function ldiv.l_diversity(table, qi, sa): the privacy statistics of a table's classes, as ldiv check reports them
-- params: none
-- returns: creates function ldiv.l_diversity(text, text[], text) returning one row (classes, rows, k, distinct_l, entropy_l, frequency_l)
-- ref: issue 55 item 2; the DuckDB macro's twin (functions/l_diversity.sql)
CREATE OR REPLACE FUNCTION ldiv.l_diversity(tbl TEXT, qi TEXT[], sa TEXT)
RETURNS TABLE (classes BIGINT, "rows" BIGINT, k BIGINT, distinct_l BIGINT, entropy_l DOUBLE PRECISION, frequency_l DOUBLE PRECISION)
LANGUAGE sql STABLE AS $$
    SELECT count(*), coalesce(sum(s.class_size), 0)::BIGINT, min(s.class_size), min(s.distinct_values),
           exp(min(s.entropy)), min(s.class_size::DOUBLE PRECISION / s.top_count)
    FROM ldiv.class_stats(tbl, qi, sa) AS s
$$
