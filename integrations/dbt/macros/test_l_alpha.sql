{#- The (l,alpha)-diversity family (Sun, Li, Wang; SPEC §3). `categories` maps each SA value to its
    sensitivity category (1 = most sensitive, ..., K); the category weights are `weights`: uniform
    ((j-1)/(K-1), the default), sensitivity (SPEC §3.1's formula with integer `beta`, default 2) or
    explicit {rank: weight} (a number or "p/q"). A class needs at least l distinct values and a total row
    weight >= alpha, and by `variant`: distinct (nothing more), entropy (entropy >= ln l over the category
    counts, or over the values with entropy_over: values) or recursive (r1 < c·(r_l + ...) over the
    category counts). Weights are compared exactly, over their common denominator. A class holding a value
    without a category fails with uncategorized > 0 (ldiv check refuses such a table). -#}
{% test l_alpha(model, qi, sa, l, alpha, categories, weights='uniform', variant='distinct', c=none, beta=2, entropy_over='categories') %}
  {%- set l = l | int -%}
  {%- set ranks = categories.values() | map('int') | list -%}
  {%- set k = ranks | max -%}
  {%- set w = ldiv_db.category_weights(k, weights, beta | int) -%}
  {%- set wnum, wden = w[0], w[1] -%}
  {%- set af = ldiv_db.fraction(alpha, 'alpha') -%}
  {%- if variant not in ('distinct', 'entropy', 'recursive') -%}
    {{ exceptions.raise_compiler_error("ldiv_db: l_alpha variant must be distinct, entropy or recursive, not " ~ variant) }}
  {%- endif -%}
  {%- set unit = 'ldiv_category' if entropy_over == 'categories' or variant == 'recursive' else 'ldiv_value' -%}
with ldiv_cells as (
    select {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }} as ldiv_value, count(*) as ldiv_n
    from {{ model }}
    group by {{ ldiv_db.idents(qi) }}, {{ ldiv_db.ident(sa) }}
), ldiv_categorized as (
    select ldiv_cells.*,
           case cast(ldiv_value as {{ ldiv_db.text_type() }})
           {%- for value, rank in categories.items() %}
               when {{ ldiv_db.text_literal(value) }} then {{ rank | int }}
           {%- endfor %}
           end as ldiv_category
    from ldiv_cells
), ldiv_weighted as (
    select ldiv_categorized.*,
           case ldiv_category
           {%- for rank in range(1, k + 1) %}
               when {{ rank }} then {{ wnum[rank] }}
           {%- endfor %}
           end as ldiv_w
    from ldiv_categorized
), ldiv_units as (
    select {{ ldiv_db.idents(qi) }}, {{ unit }} as ldiv_unit, sum(ldiv_n) as ldiv_n
    from ldiv_weighted
    group by {{ ldiv_db.idents(qi) }}, {{ unit }}
), ldiv_unit_stats as (
    select {{ ldiv_db.idents(qi) }},
           count(*) as units,
           ln(cast(sum(ldiv_n) as {{ ldiv_db.double_type() }}))
             - sum(ldiv_n * ln(cast(ldiv_n as {{ ldiv_db.double_type() }}))) / sum(ldiv_n) as unit_entropy,
           max(ldiv_n) as unit_top,
           sum(ldiv_r_tail) as unit_tail
    from (
        select ldiv_units.*,
               case when row_number() over (partition by {{ ldiv_db.idents(qi) }} order by ldiv_n desc) >= {{ l }}
                    then ldiv_n else 0 end as ldiv_r_tail
        from ldiv_units
    ) as ldiv_u
    group by {{ ldiv_db.idents(qi) }}
), ldiv_classes as (
    select {{ ldiv_db.idents(qi) }},
           sum(ldiv_n) as class_size,
           count(*) as distinct_values,
           sum(ldiv_n * ldiv_w) as weight_num,
           sum(case when ldiv_category is null then ldiv_n else 0 end) as uncategorized
    from ldiv_weighted
    group by {{ ldiv_db.idents(qi) }}
), ldiv_joined as (
    select cl.*, us.units, us.unit_entropy, us.unit_top, us.unit_tail
    from ldiv_classes as cl
    join ldiv_unit_stats as us on
    {%- for q in qi %}
        {% if not loop.first %}and {% endif %}(cl.{{ ldiv_db.ident(q) }} = us.{{ ldiv_db.ident(q) }} or (cl.{{ ldiv_db.ident(q) }} is null and us.{{ ldiv_db.ident(q) }} is null))
    {%- endfor %}
)
select {{ ldiv_db.idents(qi) }}, class_size, distinct_values, weight_num, {{ wden }} as weight_den, uncategorized
from ldiv_joined
where uncategorized > 0
   or distinct_values < {{ l }}
   or weight_num * {{ af[1] }} < {{ af[0] }} * {{ wden }}
{%- if variant == 'entropy' %}
   or not (unit_entropy >= ln(cast({{ l }} as {{ ldiv_db.double_type() }})) - 1e-12)
{%- elif variant == 'recursive' %}
   {%- set cf = ldiv_db.fraction(c, 'c') %}
   or units < {{ l }} or unit_top * {{ cf[1] }} >= {{ cf[0] }} * unit_tail
{%- endif %}
{% endtest %}

{#- Category weights as integer numerators over one denominator: [ {rank: numerator}, denominator ]. -#}
{% macro category_weights(k, weights, beta) -%}
  {%- set num = {} -%}
  {%- if k < 2 -%}
    {%- do num.update({1: 1}) -%}
    {{ return([num, 1]) }}
  {%- elif weights == 'uniform' -%}
    {%- for j in range(1, k + 1) %}{% do num.update({j: j - 1}) %}{% endfor -%}
    {{ return([num, k - 1]) }}
  {%- elif weights == 'sensitivity' -%}
    {#- w(S_j) = sum_{i=2..j} (i-1)^-beta / sum_{i=2..k} (i-1)^-beta, over the product of the (i-1)^beta -#}
    {%- set ns = namespace(prod=1, total=0, acc=0) -%}
    {%- for i in range(2, k + 1) %}{% set ns.prod = ns.prod * ((i - 1) ** beta) %}{% endfor -%}
    {%- do num.update({1: 0}) -%}
    {%- for i in range(2, k + 1) %}{% set ns.acc = ns.acc + ns.prod // ((i - 1) ** beta) %}{% do num.update({i: ns.acc}) %}{% endfor -%}
    {{ return([num, ns.acc]) }}
  {%- elif weights is mapping -%}
    {%- set ns = namespace(den=1) -%}
    {%- for rank, wt in weights.items() %}{% set f = ldiv_db.fraction(wt, 'the weight of category ' ~ rank) %}{% set ns.den = ns.den * (f[1] | int) %}{% endfor -%}
    {%- for rank, wt in weights.items() -%}
      {%- set f = ldiv_db.fraction(wt, 'the weight of category ' ~ rank) -%}
      {%- if f[1] != 1 or '.' not in (f[0] | string) -%}
        {%- do num.update({rank | int: (f[0] | int) * (ns.den // (f[1] | int))}) -%}
      {%- else -%}
        {{ exceptions.raise_compiler_error("ldiv_db: give explicit weights as integers or fractions p/q, not " ~ wt) }}
      {%- endif -%}
    {%- endfor -%}
    {%- for j in range(1, k + 1) -%}
      {%- if j not in num -%}
        {{ exceptions.raise_compiler_error("ldiv_db: explicit weights miss category " ~ j) }}
      {%- endif -%}
    {%- endfor -%}
    {{ return([num, ns.den]) }}
  {%- else -%}
    {{ exceptions.raise_compiler_error("ldiv_db: weights must be uniform, sensitivity or {rank: weight}, not " ~ weights) }}
  {%- endif -%}
{%- endmacro %}
