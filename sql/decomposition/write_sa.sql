-- purpose: write the SA-table: per SA-group, each SA column's multiset after noise (groups of earlier releases copied unless they grew)
-- params: none
-- returns: creates output(<group column>, <SA columns as VARCHAR>) ordered by group and values
-- ref: SPEC §4.1 (SA-table), §4.4 (noise keeps the group size)
CREATE TABLE {{ output | table }} AS
SELECT * FROM (
{% if previous %}
    SELECT * FROM {{ previous | table }}
    WHERE {{ group_column | ident }} NOT IN (SELECT gid FROM {{ sa_rows | table }})
    UNION ALL
{% endif %}
    SELECT gid AS {{ group_column | ident }}{% for c in sa %}, {{ ('s' ~ loop.index) | ident }} AS {{ c | ident }}{% endfor %}

    FROM {{ sa_rows | table }}
)
ORDER BY {{ group_column | ident }}{% for c in sa %}, {{ c | ident }}{% endfor %}
