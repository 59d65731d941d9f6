{#- The classes of a table (rows with equal QI values; NULL is a value of its own, as
    `ldiv check --null-as-value`) and, per class: class_size, distinct_values (of the SA), top_count (the
    most frequent value's count, h), entropy (natural log) and, with tail_from = l, tail (the counts from
    the l-th largest on, for recursive (c,l)). One SQL for every adapter: standard aggregates and
    row_number. -#}
{% macro class_stats_sql(model, qi, sa, tail_from=none) -%}
  {%- if qi is string or not qi -%}
    {{ exceptions.raise_compiler_error("ldiv_db: qi must be a list of column names, e.g. qi: [age, sex, zip]") }}
  {%- endif -%}
with ldiv_cells as (
    select {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }} as ldiv_value, count(*) as ldiv_n
    from {{ model }}
    group by {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }}
), ldiv_ranked as (
    select ldiv_cells.*,
           row_number() over (partition by {{ ldiv_db.idents(qi) }} order by ldiv_n desc) as ldiv_rank
    from ldiv_cells
)
select {{ ldiv_db.idents(qi) }},
       sum(ldiv_n) as class_size,
       count(*) as distinct_values,
       max(ldiv_n) as top_count,
       ln(cast(sum(ldiv_n) as {{ ldiv_db.double_type() }}))
         - sum(ldiv_n * ln(cast(ldiv_n as {{ ldiv_db.double_type() }}))) / sum(ldiv_n) as entropy
       {%- if tail_from is not none %},
       sum(case when ldiv_rank >= {{ tail_from | int }} then ldiv_n else 0 end) as tail
       {%- endif %}
from ldiv_ranked
group by {{ ldiv_db.idents(qi) }}
{%- endmacro %}
