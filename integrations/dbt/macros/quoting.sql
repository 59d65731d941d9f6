{#- Names and values as each adapter spells them (adapter dispatch; `default__` serves DuckDB and
    PostgreSQL, `spark__` Spark SQL). dbt's adapter.quote does not double a quote inside a name, so a
    column named a"b needs these. -#}

{% macro ident(name) -%}
  {{ return(adapter.dispatch('ident', 'ldiv_db')(name)) }}
{%- endmacro %}

{% macro default__ident(name) -%}
  "{{ name | replace('"', '""') }}"
{%- endmacro %}

{% macro spark__ident(name) -%}
  `{{ name | replace('`', '``') }}`
{%- endmacro %}

{% macro idents(names, prefix=none) -%}
  {%- for n in names -%}{% if prefix %}{{ prefix }}.{% endif %}{{ ldiv_db.ident(n) }}{% if not loop.last %}, {% endif %}{%- endfor -%}
{%- endmacro %}

{% macro text_literal(value) -%}
  {{ return(adapter.dispatch('text_literal', 'ldiv_db')(value)) }}
{%- endmacro %}

{% macro default__text_literal(value) -%}
  '{{ value | string | replace("'", "''") }}'
{%- endmacro %}

{% macro spark__text_literal(value) -%}
  '{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'
{%- endmacro %}

{% macro text_type() -%}
  {{ return(adapter.dispatch('text_type', 'ldiv_db')()) }}
{%- endmacro %}

{% macro default__text_type() -%}varchar{%- endmacro %}

{% macro spark__text_type() -%}string{%- endmacro %}

{% macro double_type() -%}
  {{ return(adapter.dispatch('double_type', 'ldiv_db')()) }}
{%- endmacro %}

{% macro default__double_type() -%}double precision{%- endmacro %}

{% macro spark__double_type() -%}double{%- endmacro %}

{#- A number as an exact fraction [numerator, denominator] of SQL literals: 3 -> [3, 1], 0.25 -> [0.25, 1]
    (a decimal literal, exact in every adapter), "1/4" -> [1, 4]. -#}
{% macro fraction(x, what) -%}
  {%- set text = x | string | trim -%}
  {%- if modules.re.fullmatch('[0-9]+\\s*/\\s*[1-9][0-9]*', text) -%}
    {%- set parts = text.split('/') -%}
    {{ return([parts[0] | trim | int, parts[1] | trim | int]) }}
  {%- elif modules.re.fullmatch('[0-9]+(\\.[0-9]+)?', text) -%}
    {{ return([text, 1]) }}
  {%- else -%}
    {{ exceptions.raise_compiler_error("ldiv_db: " ~ what ~ " must be a number such as 3, 0.25 or 1/4, not " ~ text) }}
  {%- endif -%}
{%- endmacro %}
