{#- l+-diversity (SPEC §5.1): in every class, every SA value s occurs at most theta_s·|G| times. theta_s is
    given per value in `thresholds` ({value: theta}, theta a number or "p/q"); a value not listed takes
    1/l (`l`, as `ldiv check --model lplus --l l --thresholds ...`). Fails with the classes where a value
    exceeds its threshold. -#}
{% test l_plus(model, qi, sa, thresholds={}, l=none) %}
  {%- if l is none and not thresholds -%}
    {{ exceptions.raise_compiler_error("ldiv_db: l_plus needs thresholds ({value: theta}) or l (theta = 1/l)") }}
  {%- endif -%}
with ldiv_cells as (
    select {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }} as ldiv_value, count(*) as ldiv_n
    from {{ model }}
    group by {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }}
), ldiv_sized as (
    select ldiv_cells.*, sum(ldiv_n) over (partition by {{ ldiv_db.idents(qi) }}) as class_size,
           case cast(ldiv_value as {{ ldiv_db.text_type() }})
           {%- for value, theta in thresholds.items() %}
           {%- set f = ldiv_db.fraction(theta, 'the threshold of ' ~ value) %}
               when {{ ldiv_db.text_literal(value) }} then ldiv_n * {{ f[1] }} > {{ f[0] }} * sum(ldiv_n) over (partition by {{ ldiv_db.idents(qi) }})
           {%- endfor %}
               else {% if l is none %}false{% else %}ldiv_n * {{ l | int }} > sum(ldiv_n) over (partition by {{ ldiv_db.idents(qi) }}){% endif %}
           end as ldiv_over
    from ldiv_cells
)
select {{ ldiv_db.idents(qi) }}, max(class_size) as class_size, count(*) as distinct_values,
       max(ldiv_n) as top_count
from ldiv_sized
group by {{ ldiv_db.idents(qi) }}
having max(case when ldiv_over then 1 else 0 end) = 1
{% endtest %}
