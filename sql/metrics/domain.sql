-- purpose: the domain of every QI attribute — the hierarchy's leaves where one is stored, else the distinct source values — with the number of source rows holding each value
-- params: none
-- returns: creates target(attr, value, num, source_rows, code); value is the text form (CAST AS VARCHAR), num its number on numeric attributes, code the value's 0-based number in text order per attribute (KL's integer coding)
-- ref: SPEC §0.7 (|A| = leaf count; "domain sizes for * come from the schema"); datasets README (ARX: domain size = hierarchy rows)
{% set source_table = source | table %}
{{ target | create_table }} AS
WITH src AS (
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
    FROM {{ attrs | table }} AS a
    JOIN ldiv.hierarchy_node AS n ON n.hierarchy_id = a.hierarchy_id AND n.height = 0
)
SELECT
    coalesce(l.attr, s.attr) AS attr,
    coalesce(l.value, s.value) AS value,
    coalesce(s.num, l.num) AS num,
    coalesce(s.source_rows, 0) AS source_rows,
    CAST(row_number() OVER (PARTITION BY coalesce(l.attr, s.attr) ORDER BY coalesce(l.value, s.value)) - 1 AS INTEGER) AS code
FROM leaf AS l
FULL JOIN src AS s ON s.attr = l.attr AND s.value = l.value
