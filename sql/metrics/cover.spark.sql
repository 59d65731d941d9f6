-- purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs)
-- params: none
-- returns: creates target(attr, label, value, num)
-- ref: metrics/cover.sql, whose rows this is; metrics/cover.postgres.sql, whose plan this is: Spark runs the range join (num
--      between lo and hi) as a broadcast nested loop over every label and value of the attribute, quadratic where a QI has a
--      value per row (bench/results/history.md, "Round 24: PostgreSQL on the shapes"); an interval's ranks are exploded from a
--      sequence here, of the intervals that hold a value only (a sequence from a greater bound to a smaller one counts down)
{{ target | create_table }} AS
WITH ranked AS (
    SELECT attr, value, num, row_number() OVER (PARTITION BY attr ORDER BY num, value) AS r
    FROM {{ domain | table }}
    WHERE num IS NOT NULL
), points AS (
    -- at equal numbers a lower bound sorts before the values (counting those below it), an upper bound after them
    SELECT attr, num AS x, 0 AS side, CAST(NULL AS VARCHAR) AS label FROM ranked
    UNION ALL
    SELECT attr, lo, -1, label FROM {{ labels | table }} WHERE kind = 'interval' AND lo IS NOT NULL AND hi IS NOT NULL
    UNION ALL
    SELECT attr, hi, 1, label FROM {{ labels | table }} WHERE kind = 'interval' AND lo IS NOT NULL AND hi IS NOT NULL
), placed AS (
    SELECT attr, label, side,
           sum(CASE WHEN side = 0 THEN 1 ELSE 0 END) OVER (PARTITION BY attr ORDER BY x, side ROWS UNBOUNDED PRECEDING) AS below
    FROM points
), spans AS (
    SELECT attr, label, max(CASE WHEN side = -1 THEN below END) + 1 AS first, max(CASE WHEN side = 1 THEN below END) AS last
    FROM placed
    WHERE side <> 0
    GROUP BY attr, label
)
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = l.label
WHERE l.kind = 'leaf'
UNION ALL
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr
WHERE l.kind = 'star'
UNION ALL
SELECT e.attr, e.label, d.value, d.num
FROM (SELECT attr, label, unnest(generate_series(first, last)) AS r FROM spans WHERE first <= last) AS e
JOIN ranked AS d ON d.attr = e.attr AND d.r = e.r
UNION ALL
SELECT DISTINCT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN ldiv.hierarchy_level AS hl ON hl.hierarchy_id = l.hierarchy_id AND hl.label = l.label
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = hl.leaf
WHERE l.kind = 'node'
