-- purpose: the empty work table of the noise this release adds (one row per replaced copy)
-- params: none
-- returns: creates target(gid, sa, replaced, noise, distance)
-- ref: SPEC §4.4
{{ target | create_table }} (gid BIGINT, sa VARCHAR, replaced VARCHAR, noise VARCHAR, distance DOUBLE)
