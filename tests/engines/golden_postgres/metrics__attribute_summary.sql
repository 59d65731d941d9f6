/* purpose: per QI attribute, the sums the metrics need: NCP numerators (categorical: rows x #leaves of non-leaf labels; numeric: rows x clipped span), LM numerator rows x (#leaves - 1), ARX share numerator rows x #leaves, '*' cells, and labels that cover nothing */
/* params: table_name, qi_names */
/* returns: attr, is_numeric, domain_size, min_t, max_t, cells, ncp_cat, ncp_span, lm_num, cover_sum, stars, bad_rows, bad_label (one row per attribute, by attr) */
/* ref: SPEC §0.7 (NCP, LM), §5.4 (LM per cell); ARX MetricMDNMLoss (share = leaves under the label / domain size) */
WITH attrs AS (
  SELECT
    a.attr,
    a.is_numeric,
    a.intervals,
    a.is_integer,
    h.hierarchy_id
  FROM (VALUES
    (1, FALSE, FALSE, FALSE),
    (2, TRUE, TRUE, TRUE),
    (3, FALSE, FALSE, FALSE),
    (4, FALSE, FALSE, FALSE)) AS a(attr, is_numeric, intervals, is_integer)
  LEFT JOIN ldiv.hierarchy AS h
    ON h.table_name = (
      CAST(%(table_name)s AS TEXT)
    )
    AND h.column_name = (
      CAST(%(qi_names)s AS TEXT[])
    )[a.attr]
), dom AS (
  SELECT
    attr,
    COUNT(*) AS domain_size,
    MIN(num) FILTER(WHERE
      source_rows > 0) AS min_t,
    MAX(num) FILTER(WHERE
      source_rows > 0) AS max_t
  FROM "pg_temp"."wk metrics domain's"
  GROUP BY
    attr
), cov AS (
  SELECT
    attr,
    label,
    COUNT(*) AS n_cover,
    MIN(num) AS lo,
    MAX(num) AS hi
  FROM "pg_temp"."wk metrics cover's"
  GROUP BY
    attr,
    label
), lab AS (
  SELECT
    l.attr,
    l.label,
    l.kind,
    l.rows,
    COALESCE(c.n_cover, 0) AS n_cover,
    COALESCE(l.lo, c.lo) AS lo,
    COALESCE(l.hi, c.hi) AS hi
  FROM "pg_temp"."wk metrics labels's" AS l
  LEFT JOIN cov AS c
    ON c.attr = l.attr AND c.label = l.label
)
SELECT
  a.attr,
  a.is_numeric,
  d.domain_size,
  d.min_t,
  d.max_t,
  CAST(COALESCE(SUM(lab.rows), 0) AS BIGINT) AS cells,
  CAST(COALESCE(SUM(lab.rows * lab.n_cover) FILTER(WHERE
    lab.kind <> 'leaf'), 0) AS DECIMAL) AS ncp_cat,
  COALESCE(
    SUM(
      lab.rows * CASE
        WHEN lab.kind = 'leaf'
        THEN 0
        WHEN lab.kind = 'star'
        THEN d.max_t - d.min_t
        ELSE GREATEST(LEAST(lab.hi, d.max_t) - GREATEST(lab.lo, d.min_t), 0)
      END
    ),
    0
  ) AS ncp_span,
  CAST(COALESCE(SUM(lab.rows * (
    lab.n_cover - 1
  )) FILTER(WHERE
    lab.n_cover > 0), 0) AS DECIMAL) AS lm_num,
  CAST(COALESCE(SUM(lab.rows * lab.n_cover), 0) AS DECIMAL) AS cover_sum,
  CAST(COALESCE(SUM(lab.rows) FILTER(WHERE
    lab.label = '*'), 0) AS BIGINT) AS stars,
  CAST(COALESCE(SUM(lab.rows) FILTER(WHERE
    lab.kind = 'unknown' OR lab.n_cover = 0), 0) AS BIGINT) AS bad_rows,
  MIN(COALESCE(lab.label, 'NULL')) FILTER(WHERE
    lab.kind = 'unknown' OR lab.n_cover = 0) AS bad_label
FROM attrs AS a
JOIN dom AS d
  ON d.attr = a.attr
LEFT JOIN lab
  ON lab.attr = a.attr
GROUP BY
  a.attr,
  a.is_numeric,
  d.domain_size,
  d.min_t,
  d.max_t
ORDER BY
  a.attr
