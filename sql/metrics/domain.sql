-- purpose: the domain of every QI attribute — the hierarchy's leaves where one is stored, else the distinct source values — with the number of source rows holding each value
-- params: table_name, qi_names
-- returns: creates target(attr, value, num, source_rows, code); value is the text form (CAST AS VARCHAR), num its number on numeric attributes (on an integer attribute its distance from the attribute's least value, exact), code the value's 0-based number in text order per attribute (KL's integer coding)
-- ref: SPEC §0.7 (|A| = leaf count; "domain sizes for * come from the schema"); datasets README (ARX: domain size = hierarchy rows)
{% set source_table = source | table %}
{{ target | create_table }} AS
WITH
{% include "_macros/metrics_attrs.sql" %},
src AS (
{% for c in qi %}
{% set col = c | ident %}
    SELECT
        {{ loop.index }} AS attr,
        CAST({{ col }} AS VARCHAR) AS value,
        {% if numeric[loop.index0] %}CAST({{ col }} AS DOUBLE){% else %}CAST(NULL AS DOUBLE){% endif %} AS num,
        count(*) AS source_rows
    FROM {{ source_table }}
    WHERE {{ col }} IS NOT NULL
    GROUP BY ALL
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
leaf AS (
    SELECT
        a.attr,
        n.label AS value,
        CASE WHEN a.is_numeric THEN coalesce(n.lo, TRY_CAST(n.label AS DOUBLE)) END AS num
    FROM attrs AS a
    JOIN ldiv.hierarchy_node AS n ON n.hierarchy_id = a.hierarchy_id AND n.height = 0
),
joined AS (
    SELECT
        coalesce(l.attr, s.attr) AS attr,
        coalesce(l.value, s.value) AS value,
        coalesce(s.num, l.num) AS num,
        coalesce(s.source_rows, 0) AS source_rows
    FROM leaf AS l
    FULL JOIN src AS s ON s.attr = l.attr AND s.value = l.value
),
exact AS (
    -- an integer attribute's numbers: exact, as the distance from its least value (metrics/labels.sql
    -- reads the same base), so bounds near 2^63 do not merge in DOUBLE; NCP uses differences only
    SELECT
        j.*,
        CASE
            WHEN a.is_integer AND regexp_matches(j.value COLLATE "C", '^-?[0-9]{1,38}$')
                THEN CAST(j.value AS DECIMAL(38, 0))
        END AS whole
    FROM joined AS j
    JOIN attrs AS a ON a.attr = j.attr
),
based AS (
    SELECT *, min(whole) OVER (PARTITION BY attr) AS base FROM exact
)
SELECT
    attr,
    value,
    CASE
        WHEN base IS NULL THEN num
        ELSE coalesce(CAST(whole - base AS DOUBLE), num - CAST(base AS DOUBLE))
    END AS num,
    source_rows,
    CAST(row_number() OVER (PARTITION BY attr ORDER BY value) - 1 AS INTEGER) AS code
FROM based
