-- purpose: write the per-row risk table of `ldiv risk --rows-out`: every row's class keys, its class size, prosecutor risk 1/|class|, whether it is a sample unique and whether its risk exceeds the threshold (exactly: threshold_den > threshold_num·|class|); with a population table also its population class size and journalist risk
-- params: threshold_num, threshold_den
-- returns: nothing (creates the table)
-- ref: ldiv_db/risks/command.py (written in one transaction, a new table only: ldiv_db/core/ownership.py check_new_table); the keys are ldiv_db/core/classes.py's class_keys
CREATE TABLE {{ target | table }} AS
WITH sized AS (
    SELECT {{ keys | idents }}, count(*) OVER (PARTITION BY {{ keys | idents }}) AS class_size
    FROM {{ source | table }}
){% if population is not none %}, population_classes AS (
    SELECT {{ population_keys | idents }}, count(*) AS pf
    FROM {{ population | table }}
    GROUP BY {{ population_keys | idents }}
){% endif %}
SELECT {% for k in keys %}s.{{ k | ident }}, {% endfor %}s.class_size AS {{ names.class_size | ident }},
       1.0 / s.class_size AS {{ names.prosecutor_risk | ident }},
       s.class_size = 1 AS {{ names.sample_unique | ident }},
{% if population is not none %}
       coalesce(p.pf, 0) AS {{ names.population_size | ident }},
       CASE WHEN p.pf > 0 THEN 1.0 / p.pf END AS {{ names.journalist_risk | ident }},
{% endif %}
       $threshold_den > $threshold_num * s.class_size AS {{ names.above_threshold | ident }}
FROM sized AS s
{% if population is not none %}
LEFT JOIN population_classes AS p
  ON {% for a, b in pairs %}{% if not loop.first %} AND {% endif %}CAST(s.{{ a | ident }} AS VARCHAR) IS NOT DISTINCT FROM CAST(p.{{ b | ident }} AS VARCHAR){% endfor %}
{% endif %}
