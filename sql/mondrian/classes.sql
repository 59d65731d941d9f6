-- purpose: the empty table of Mondrian's final class per QI vector, filled from the partitioning
-- params: none
-- returns: creates target(vid, gid)
-- ref: LeFevre et al. ICDE 2006
{{ target | create_table }} (vid BIGINT, gid BIGINT)
