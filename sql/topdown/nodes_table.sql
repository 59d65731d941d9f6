-- purpose: (l,alpha) top-down: the empty table of output nodes: group id and hierarchy level per QI
-- params: none
-- returns: creates target(node, gid, lv1..lvd), filled by the controller
-- ref: SPEC §3.3 (each node of O is published at its node value)
{{ target | create_table }} (
    node BIGINT NOT NULL,
    gid BIGINT NOT NULL
{% for c in qi %}
    , {{ ('lv' ~ loop.index) | ident }} INTEGER NOT NULL
{% endfor %}
)
