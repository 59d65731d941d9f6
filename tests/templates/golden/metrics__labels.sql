/* purpose: every distinct QI label of the release, classified: a numeric range 'lo-hi' on an attribute whose labels are intervals ('interval', first), a hierarchy node ('leaf'/'node'), '*' ('star'), a domain value ('leaf'), a numeric interval 'lo-hi' or number ('interval'), else 'unknown'; with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: creates target(attr, label, rows, kind, hierarchy_id, node_id, lo, hi, code); lo/hi: node range, parsed interval, or the leaf's number; code: the label's 0-based number in text order per attribute (KL's integer coding) */
/* ref: SPEC §0.5 (output forms: LCA label, "lo-hi" interval, *), §0.7 */
/*      the interval pattern is matched in the bytes' order (COLLATE "C"): a QI column of a nondeterministic */
/*      collation (PostgreSQL: case-insensitive ICU) passes its collation to the labels, and PostgreSQL */
/*      refuses regular expressions under such a collation */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk metrics labels's" AS
WITH rel AS (
  SELECT
    1 AS attr,
    CAST("it's" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
  UNION ALL
  SELECT
    2 AS attr,
    CAST("a""b" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
  UNION ALL
  SELECT
    3 AS attr,
    CAST("Zip Code" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
  UNION ALL
  SELECT
    4 AS attr,
    CAST("select" AS TEXT) AS label,
    COUNT(*) AS rows
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
), parsed AS (
  SELECT
    rel.attr,
    rel.label,
    rel.rows,
    a.is_numeric,
    a.intervals,
    a.hierarchy_id,
    TRY_CAST(NULLIF(
      REGEXP_EXTRACT(rel.label COLLATE "C", '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$', 1),
      ''
    ) AS DOUBLE) AS iv_lo,
    TRY_CAST(NULLIF(
      REGEXP_EXTRACT(rel.label COLLATE "C", '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$', 2),
      ''
    ) AS DOUBLE) AS iv_hi
  FROM rel
  JOIN "temp"."main"."wk metrics attrs's" AS a
    ON a.attr = rel.attr
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
  ON n.hierarchy_id = p.hierarchy_id AND n.label = p.label
LEFT JOIN "temp"."main"."wk metrics domain's" AS d
  ON d.attr = p.attr AND d.value = p.label
