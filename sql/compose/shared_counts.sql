-- purpose: per release, the number of words of its shared mask (compose/shared.sql) that hold a value: 0 for a release none of whose classes covers every target
-- params: none
-- returns: one row: w1..wM
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": compose/membership.sql reads the words of a release without a shared mask only)
SELECT {% for i in range(1, m + 1) %}count(*) FILTER (WHERE {{ ('a' ~ i) | ident }} <> 0) AS {{ ('w' ~ i) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}

FROM {{ shared | table }}
