-- purpose: the empty work table of the SA-table rows this release writes (new groups and grown groups), one VARCHAR column per SA
-- params: none
-- returns: creates target(gid, s1..sk)
-- ref: SPEC §4.1 (SA-table: each SA column of a group sorted, not aligned)
{{ target | create_table }} (gid BIGINT{% for s in slots %}, {{ ('s' ~ loop.index) | ident }} VARCHAR{% endfor %})
