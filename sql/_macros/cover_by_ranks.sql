{#- Included fragment (not a statement): metrics/cover.sql's rows for an engine without a range join
    (decision 0038). Each attribute's values are ranked by number; one sorted pass over the values and
    the intervals' bounds counts the values below each bound (at equal numbers a lower bound sorts before
    the values, an upper one after them), so an interval holds the ranks from its lower count + 1 to its
    upper count, read by equality. explode: the ranks as an exploded sequence in the select list (Spark;
    only of intervals that hold a value, as a sequence from a greater bound counts down), else a series
    joined laterally (PostgreSQL's generate_series). An interval with a NULL bound covers nothing, as the
    range join's inequalities say. #}
WITH ranked AS (
    SELECT attr, value, num, row_number() OVER (PARTITION BY attr ORDER BY num, value) AS r
    FROM {{ domain | table }}
    WHERE num IS NOT NULL
), points AS (
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
{% include "_macros/cover_listed.sql" %}
UNION ALL
SELECT e.attr, e.label, d.value, d.num
{% if explode %}
FROM (SELECT attr, label, unnest(generate_series(first, last)) AS r FROM spans WHERE first <= last) AS e
{% else %}
FROM (SELECT s.attr, s.label, g.r FROM spans AS s CROSS JOIN range(s.first, s.last + 1) AS g(r)) AS e
{% endif %}
JOIN ranked AS d ON d.attr = e.attr AND d.r = e.r
