-- purpose: the published SA-table of the previous release (the value multisets of its groups, after noise), SA values as text
-- params: none
-- returns: gid, s1..sk ordered by gid
-- ref: SPEC §4.3 (a starved row may join a published group)
SELECT {{ group_column | ident }} AS gid{% for c in sa %}, CAST({{ c | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}{% endfor %}

FROM {{ source | table }}
ORDER BY gid
