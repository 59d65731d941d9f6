{#- Included fragment (not a statement): CTEs sdom1..sdomk numbering every SA's distinct source values
    (NULL included) 0-based in text order, so that source points and release patterns share SA codes.
    Context: sa, source_table. -#}
{% for c in sa %}
sdom{{ loop.index }} AS (
    SELECT v, CAST(row_number() OVER (ORDER BY v) - 1 AS INTEGER) AS code
    FROM (SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS v FROM {{ source_table }}) AS d
),
{% endfor %}
