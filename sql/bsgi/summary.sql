-- purpose: BSGI's classes counted in SQL: sizes, distinct SA values, repeats, and classes of exactly l rows with l distinct values of every SA
-- params: l
-- returns: classes, rows, min_size, max_size, min_distinct, exact_classes, classes_l_plus_1, classes_with_repeats, classes_with_repeated_individuals
-- ref: SPEC §2.1 (Unique Distinct l-diversity; an incorporated row gives l+1), §2.3 Cor. 2, §2.4 (variants)
WITH g AS (
    SELECT a.gid, count(*) AS size,
           count(DISTINCT c.b) AS d1
{% for s in extra %}
         , count(DISTINCT c.{{ s | ident }}) AS {{ ('d' ~ (loop.index + 1)) | ident }}
{% endfor %}
{% if individual %}
         , count(DISTINCT c.ind) AS di
{% endif %}
    FROM {{ assignment | table }} AS a
    JOIN {{ codes | table }} AS c ON c.rid = a.rid
    WHERE NOT a.deleted
    GROUP BY a.gid
)
SELECT count(*) AS classes,
       coalesce(sum(size), 0) AS "rows",
       min(size) AS min_size,
       max(size) AS max_size,
       min(least(d1{% for s in extra %}, {{ ('d' ~ (loop.index + 1)) | ident }}{% endfor %})) AS min_distinct,
       count(*) FILTER (WHERE size = $l AND d1 = $l{% for s in extra %} AND {{ ('d' ~ (loop.index + 1)) | ident }} = $l{% endfor %}) AS exact_classes,
       count(*) FILTER (WHERE size = $l + 1 AND d1 = size{% for s in extra %} AND {{ ('d' ~ (loop.index + 1)) | ident }} = size{% endfor %}) AS classes_l_plus_1,
       count(*) FILTER (WHERE d1 < size{% for s in extra %} OR {{ ('d' ~ (loop.index + 1)) | ident }} < size{% endfor %}) AS classes_with_repeats,
{% if individual %}
       count(*) FILTER (WHERE di < size) AS classes_with_repeated_individuals
{% else %}
       0 AS classes_with_repeated_individuals
{% endif %}
FROM g
