DROP TABLE IF EXISTS "pg_temp"."wk metrics labels's";
/* purpose: every distinct QI label of the release, classified: a numeric range 'lo-hi' on an attribute whose labels are intervals ('interval', first), a hierarchy node ('leaf'/'node'), '*' ('star'), a domain value ('leaf'), a numeric interval 'lo-hi' or number ('interval'), else 'unknown'; with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each; with $flat, a suppression release (values and '*' alone, no hierarchy read), no label is a hierarchy node: '*' is the whole domain even where a stored hierarchy has a node '*' */
/* params: table_name, qi_names, flat */
/* returns: creates target(attr, label, rows, kind, hierarchy_id, node_id, lo, hi, code); lo/hi: node range, parsed interval, or the leaf's number (on an integer attribute: distances from its least domain value, read exactly; a node's left NULL, metrics/attribute_summary.sql takes its cover's least and greatest value, the same range exactly); code: the label's 0-based number in text order per attribute (KL's integer coding) */
/* ref: SPEC §0.5 (output forms: LCA label, "lo-hi" interval, *), §0.7 */
/*      the interval pattern is matched in the bytes' order (COLLATE "C"): a QI column of a nondeterministic */
/*      collation (PostgreSQL: case-insensitive ICU) passes its collation to the labels, and PostgreSQL */
/*      refuses regular expressions under such a collation */
CREATE TABLE "pg_temp"."wk metrics labels's" AS
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
), rel AS (
  SELECT
    1 AS attr,
    CAST("it's" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2
  UNION ALL
  SELECT
    2 AS attr,
    CAST("a""b" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2
  UNION ALL
  SELECT
    3 AS attr,
    CAST("Zip Code" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2
  UNION ALL
  SELECT
    4 AS attr,
    CAST("select" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2
), base AS (
  SELECT
    d.attr,
    MIN(
      CASE
        WHEN d.value COLLATE "C" ~ '^-?[0-9]{1,38}$'
        THEN CAST(d.value AS DECIMAL(38, 0))
      END
    ) AS base
  FROM "pg_temp"."wk metrics domain's" AS d
  JOIN attrs AS a
    ON a.attr = d.attr
  WHERE
    a.is_integer
  GROUP BY
    d.attr
), bounds AS (
  SELECT
    rel.attr,
    rel.label,
    rel.rows,
    a.is_numeric,
    a.intervals,
    a.is_integer,
    a.hierarchy_id,
    b.base,
    NULLIF(
      COALESCE(
        (
          REGEXP_MATCH(
            (
              rel.label COLLATE "C"
            ),
            '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$'
          )
        )[1],
        ''
      ),
      ''
    ) AS lo_text,
    NULLIF(
      COALESCE(
        (
          REGEXP_MATCH(
            (
              rel.label COLLATE "C"
            ),
            '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$'
          )
        )[2],
        ''
      ),
      ''
    ) AS hi_text
  FROM rel
  JOIN attrs AS a
    ON a.attr = rel.attr
  LEFT JOIN base AS b
    ON b.attr = rel.attr
), parsed AS (
  SELECT
    *,
    CASE
      WHEN base IS NULL
      THEN CAST(lo_text AS DOUBLE PRECISION)
      ELSE COALESCE(
        CAST(CAST(CASE WHEN POSITION('.' IN lo_text) = 0 AND LENGTH(lo_text) <= 38 THEN lo_text END AS DECIMAL(38, 0)) - base AS DOUBLE PRECISION),
        CAST(lo_text AS DOUBLE PRECISION) - CAST(base AS DOUBLE PRECISION)
      )
    END AS iv_lo,
    CASE
      WHEN base IS NULL
      THEN CAST(hi_text AS DOUBLE PRECISION)
      ELSE COALESCE(
        CAST(CAST(CASE WHEN POSITION('.' IN hi_text) = 0 AND LENGTH(hi_text) <= 38 THEN hi_text END AS DECIMAL(38, 0)) - base AS DOUBLE PRECISION),
        CAST(hi_text AS DOUBLE PRECISION) - CAST(base AS DOUBLE PRECISION)
      )
    END AS iv_hi
  FROM bounds
)
SELECT
  p.attr,
  p.label,
  p.rows,
  CASE
    WHEN p.intervals AND p.is_numeric AND NOT p.iv_hi IS NULL
    THEN 'interval'
    WHEN NOT n.node_id IS NULL AND n.height = 0
    THEN 'leaf'
    WHEN NOT n.node_id IS NULL
    THEN 'node'
    WHEN p.label = '*'
    THEN 'star'
    WHEN NOT d.value IS NULL
    THEN 'leaf'
    WHEN p.is_numeric AND NOT p.iv_lo IS NULL
    THEN 'interval'
    ELSE 'unknown'
  END AS kind,
  p.hierarchy_id,
  n.node_id,
  CASE
    WHEN p.intervals AND p.is_numeric AND NOT p.iv_hi IS NULL
    THEN p.iv_lo
    WHEN NOT n.node_id IS NULL AND NOT p.base IS NULL
    THEN NULL /* exact: its cover's least value */
    WHEN NOT n.node_id IS NULL
    THEN n.lo
    WHEN p.label = '*'
    THEN NULL
    WHEN NOT d.value IS NULL
    THEN d.num
    ELSE p.iv_lo
  END AS lo,
  CASE
    WHEN p.intervals AND p.is_numeric AND NOT p.iv_hi IS NULL
    THEN COALESCE(p.iv_hi, p.iv_lo)
    WHEN NOT n.node_id IS NULL AND NOT p.base IS NULL
    THEN NULL /* exact: its cover's greatest value */
    WHEN NOT n.node_id IS NULL
    THEN n.hi
    WHEN p.label = '*'
    THEN NULL
    WHEN NOT d.value IS NULL
    THEN d.num
    ELSE COALESCE(p.iv_hi, p.iv_lo)
  END AS hi,
  CAST(ROW_NUMBER() OVER (PARTITION BY p.attr ORDER BY p.label) - 1 AS INT) AS code
FROM parsed AS p
LEFT JOIN ldiv.hierarchy_node AS n
  ON n.hierarchy_id = p.hierarchy_id
  AND n.label = p.label
  AND NOT (
    CAST(%(flat)s AS BOOLEAN)
  )
LEFT JOIN "pg_temp"."wk metrics domain's" AS d
  ON d.attr = p.attr AND d.value = p.label;
ANALYZE "pg_temp"."wk metrics labels's"
