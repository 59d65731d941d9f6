-- purpose: the empty table of Mondrian's final class per QI vector (its ordinals), filled from the partitioning
-- params: none
-- returns: creates target(o1..od DOUBLE, gid BIGINT)
-- ref: LeFevre et al. ICDE 2006
{{ target | create_table }} ({% for o in ords %}{{ o | ident }} DOUBLE, {% endfor %}gid BIGINT)
