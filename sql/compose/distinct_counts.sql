-- purpose: the number of distinct values of every QI among the targets' vectors, which orders the covering join (fewest first)
-- params: none
-- returns: n1..nk (one row)
-- ref: docs/decisions/0005-composition-check.md (the join matches the vectors' prefixes attribute by attribute: few distinct prefixes first keep the intermediate pairs few)
SELECT {% for v in vs %}count(DISTINCT {{ v | ident }}) AS {{ ('n' ~ loop.index) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}

FROM {{ points | table }}
