-- purpose: the empty table of the chosen cut's decisions per histogram cell, filled from the search
-- params: none
-- returns: creates target(l1..ld, s, k, g1..gd, gid, n_delete, suppress): cut node per QI, partition, rows to delete, SA suppressed
-- ref: SPEC §5.3 (suppression per partition); §5.2 (the cut)
{{ target | create_table }} (
{% for i in range(1, d + 1) %}
    {{ ('l' ~ i) | ident }} BIGINT,
{% endfor %}
    s VARCHAR,
    k VARCHAR,
{% for i in range(1, d + 1) %}
    {{ ('g' ~ i) | ident }} BIGINT,
{% endfor %}
    gid BIGINT,
    n_delete BIGINT,
    suppress BOOLEAN
)
