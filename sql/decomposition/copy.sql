-- purpose: keep a copy of a previous output table, read while the release replaces it
-- params: none
-- returns: creates target as a copy of source
-- ref: DESIGN §6 (the previous release stays intact until the new one commits)
{{ target | create_table }} AS SELECT * FROM {{ source | table }}
