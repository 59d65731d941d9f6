-- purpose: the rows of a release outside their class's majority value of the class column (CM of the published rows); a class is a group of rows with equal keys (ldiv_db/core/classes.py's class_keys); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each
-- params: none
-- returns: cm_published
-- ref: SPEC §0.7 (CM), §5.4; DESIGN §6 (the class is the finest partition the published table reveals); ties in the majority do not matter, only the top count is used
{% set counted = counted | default(false) %}
WITH per_value AS (
    SELECT {{ keys | idents }}, {{ klass | ident }} AS k,
           {% if counted %}CAST(sum(n) AS BIGINT){% else %}count(*){% endif %} AS n
    FROM {{ release | table }}
    GROUP BY ALL
), per_class AS (
    SELECT sum(n) AS size, max(n) AS top
    FROM per_value
    GROUP BY {{ keys | idents }}
)
SELECT CAST(coalesce(sum(size - top), 0) AS HUGEINT) AS cm_published
FROM per_class
