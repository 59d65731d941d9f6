-- purpose: create an empty table with the given columns and types (a file loaded into another engine: the types DuckDB detected)
-- params: none
-- returns: creates (or replaces) target
-- ref: issue 13 (ldiv load on PostgreSQL: DuckDB reads the file, COPY moves the rows)
{{ target | create_table }} (
{% for c in columns %}
    {{ c.name | ident }} {{ c.data_type | sqltype }}{% if not loop.last %},{% endif %}

{% endfor %}
)
