/* purpose: install the PostgreSQL function ldiv.class_stats(table, qi, sa): per class (equal QI values), its key as JSON, size, distinct SA values, top count, entropy and the descending SA counts */
/* params: none */
/* returns: creates function ldiv.class_stats(text, text[], text) returning (class jsonb, class_size, distinct_values, top_count, entropy, counts); an unknown, doubled or overlapping column is an error naming the table's columns */
/* ref: issue 55 item 2; the DuckDB macro's twin (functions/class_stats.sql). The table is parsed by regclass (a qualified or quoted name, as in SQL); the columns are found in pg_attribute case-insensitively and put into the query by format('%I'), never as text */
CREATE OR REPLACE FUNCTION ldiv.class_stats(
    tbl TEXT,
    qi TEXT[],
    sa TEXT
)
RETURNS TABLE (
  class JSONB,
  class_size BIGINT,
  distinct_values BIGINT,
  top_count BIGINT,
  entropy DOUBLE PRECISION,
  counts BIGINT[]
)
LANGUAGE plpgsql
STABLE AS
$$
DECLARE
    rel REGCLASS := tbl::REGCLASS;
    cols TEXT[];
    sa_col TEXT;
    keys TEXT;
    pairs TEXT;
    real_cols TEXT;
BEGIN
    SELECT string_agg(attname, ', ' ORDER BY attnum) INTO real_cols
    FROM pg_attribute WHERE attrelid = rel AND attnum > 0 AND NOT attisdropped;
    IF (SELECT count(DISTINCT lower(q)) FROM unnest(qi) AS q) <> cardinality(qi) THEN
        RAISE EXCEPTION 'ldiv: a quasi-identifier is named twice in %', qi;
    END IF;
    IF lower(sa) IN (SELECT lower(q) FROM unnest(qi) AS q) THEN
        RAISE EXCEPTION 'ldiv: the SA % is also given as a quasi-identifier', sa;
    END IF;
    SELECT array_agg(a.attname ORDER BY q.ord) INTO cols
    FROM unnest(qi) WITH ORDINALITY AS q(name, ord)
    JOIN pg_attribute AS a ON a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped AND lower(a.attname) = lower(q.name);
    IF coalesce(cardinality(cols), 0) <> cardinality(qi) THEN
        RAISE EXCEPTION 'ldiv: a quasi-identifier in % is not a column of % (its columns: %)', qi, rel, real_cols;
    END IF;
    SELECT a.attname INTO sa_col
    FROM pg_attribute AS a WHERE a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped AND lower(a.attname) = lower(sa);
    IF sa_col IS NULL THEN
        RAISE EXCEPTION 'ldiv: the SA % is not a column of % (its columns: %)', sa, rel, real_cols;
    END IF;
    SELECT string_agg(format('%I', c), ', '), string_agg(format('%L, %I', c, c), ', ') INTO keys, pairs
    FROM unnest(cols) AS c;
    RETURN QUERY EXECUTE format(
        'WITH cells AS (SELECT %s, %I AS ldiv_sa_value, count(*) AS ldiv_n FROM %s GROUP BY %s, %I) '
        'SELECT jsonb_build_object(%s), sum(ldiv_n)::BIGINT, count(*)::BIGINT, max(ldiv_n)::BIGINT, '
        'ln(sum(ldiv_n)::DOUBLE PRECISION) - sum(ldiv_n * ln(ldiv_n::DOUBLE PRECISION)) / sum(ldiv_n), '
        'array_agg(ldiv_n ORDER BY ldiv_n DESC) FROM cells GROUP BY %s',
        keys, sa_col, rel, keys, sa_col, pairs, keys);
END
$$
