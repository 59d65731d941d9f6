-- purpose: the empty per-group label table an algorithm fills with the LCA labels it computed from its own arrays (recoding 'lca'), in the shape of release/labels_lca.sql's result
-- params: none
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder ids: the LCA of leaves is the LCA of the smallest and largest id); ldiv_db/algorithms/shared/lca.py
{{ target | create_table }} (gid BIGINT{% for c in qi %}, {{ ('q' ~ loop.index) | ident }} VARCHAR{% endfor %})
