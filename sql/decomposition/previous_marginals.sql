-- purpose: the distinct joint SA rows of the previous release's marginals (for the linkable sensitive values), as text
-- params: none
-- returns: s1..sk
-- ref: SPEC §4.4 (LSV = projection of T_S joined with the group's primary values)
SELECT DISTINCT {% for c in sa %}CAST({{ c | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}{% if not loop.last %}, {% endif %}{% endfor %}

FROM {{ source | table }}
