{#- Included fragment (not a statement): the CTE ``attrs``, one row per QI attribute (1-based position in
    the QI list): whether its source column is numeric, whether its range labels 'lo-hi' are read as
    intervals even where a hierarchy node has the same text, whether its values are integers (whose
    numbers the metrics hold relative to the attribute's least value, exact below 2^53 apart), and the
    hierarchy stored for it (hierarchy_id NULL: a flat attribute), looked up by (resolved source table
    name, column). Built in each statement that reads it, not as a work table of its own: a handful of
    rows, and one statement fewer per release. Context: numeric, intervals, integer (one flag per QI);
    params table_name, qi_names. -#}
attrs AS (
    SELECT a.attr, a.is_numeric, a.intervals, a.is_integer, h.hierarchy_id
    FROM (
        VALUES
{% for flag in numeric %}
            ({{ loop.index }}, {% if flag %}TRUE{% else %}FALSE{% endif %}, {% if intervals[loop.index0] %}TRUE{% else %}FALSE{% endif %}, {% if integer[loop.index0] %}TRUE{% else %}FALSE{% endif %}){% if not loop.last %},{% endif %}

{% endfor %}
    ) AS a(attr, is_numeric, intervals, is_integer)
    LEFT JOIN ldiv.hierarchy AS h
        ON h.table_name = $table_name AND h.column_name = $qi_names[a.attr]
)
