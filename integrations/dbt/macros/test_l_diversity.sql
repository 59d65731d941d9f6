{#- l-diversity of one SA over the classes (SPEC §0.2), by `variant`:
      distinct   at least l distinct values;
      entropy    entropy >= ln l (natural log, tolerance 1e-12);
      recursive  r1 < c·(r_l + ... + r_q), with at least l values (c exact: 3, 2.5 or "5/2");
      frequency  l-eligible: l·h <= |G|.
    Fails with the violating classes as its rows, the same ones `ldiv check --null-as-value` counts. -#}
{% test l_diversity(model, qi, sa, l, variant='distinct', c=none) %}
  {%- set l = l | int -%}
  {%- if variant not in ('distinct', 'entropy', 'recursive', 'frequency') -%}
    {{ exceptions.raise_compiler_error("ldiv_db: l_diversity variant must be distinct, entropy, recursive or frequency, not " ~ variant) }}
  {%- endif -%}
  {%- if variant == 'recursive' and c is none -%}
    {{ exceptions.raise_compiler_error("ldiv_db: recursive l-diversity needs c, e.g. c: 2") }}
  {%- endif -%}
with ldiv_classes as (
{{ ldiv_db.class_stats_sql(model, qi, sa, tail_from=(l if variant == 'recursive' else none)) }}
)
select *
from ldiv_classes
where
{%- if variant == 'distinct' %}
    distinct_values < {{ l }}
{%- elif variant == 'entropy' %}
    not (entropy >= ln(cast({{ l }} as {{ ldiv_db.double_type() }})) - 1e-12)
{%- elif variant == 'frequency' %}
    {{ l }} * top_count > class_size
{%- else %}
    {%- set cf = ldiv_db.fraction(c, 'c') %}
    distinct_values < {{ l }} or top_count * {{ cf[1] }} >= {{ cf[0] }} * tail
{%- endif %}
{% endtest %}
