-- purpose: the frequency-of-frequencies of a table's classes (how many classes have each size), for the classes by all the keys (set 0) and, for each further key set, for the classes by that set (the keys without one quasi-identifier: the sample uniques it adds)
-- params: none
-- returns: key_set (the index into sets), size, classes (one row per key set and class size, ascending)
-- ref: ldiv_db/risks/figures.py (prosecutor and marketer risk, sample uniques, per-QI contribution; El Emam & Dankar 2008, JAMIA 15(5)); DESIGN §6 (the keys are ldiv_db/core/classes.py's class_keys: never coarser than the finest partition the table reveals)
{% for keys in sets %}
{% if not loop.first %}UNION ALL
{% endif %}SELECT {{ loop.index0 }} AS key_set, size, count(*) AS classes
FROM (
    SELECT count(*) AS size
    FROM {{ source | table }}
    {% if keys %}GROUP BY {{ keys | idents }}{% endif %}
) AS per_class_{{ loop.index0 }}
GROUP BY size
{% endfor %}
ORDER BY key_set, size
