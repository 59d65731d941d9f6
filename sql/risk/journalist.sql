-- purpose: each class of a table matched with the population's class of equal QI values: how many classes have each pair (size in the table, size in the population); values compare as text, NULL equal to NULL
-- params: none
-- returns: sample_size, population_size (0: no population row has the class's QI values), classes
-- ref: ldiv_db/risks/figures.py (journalist and marketer risk against a population table; El Emam & Dankar 2008, JAMIA 15(5)); the table's keys are ldiv_db/core/classes.py's class_keys, matched on their QI part (pairs)
WITH sample_classes AS (
    SELECT {{ keys | idents }}, count(*) AS f
    FROM {{ source | table }}
    GROUP BY {{ keys | idents }}
), population_classes AS (
    SELECT {{ population_keys | idents }}, count(*) AS pf
    FROM {{ population | table }}
    GROUP BY {{ population_keys | idents }}
)
SELECT s.f AS sample_size, coalesce(p.pf, 0) AS population_size, count(*) AS classes
FROM sample_classes AS s
LEFT JOIN population_classes AS p
  ON {% for a, b in pairs %}{% if not loop.first %} AND {% endif %}CAST(s.{{ a | ident }} AS VARCHAR) IS NOT DISTINCT FROM CAST(p.{{ b | ident }} AS VARCHAR){% endfor %}
GROUP BY s.f, coalesce(p.pf, 0)
ORDER BY sample_size, population_size
