-- purpose: top-down assignment: every row in its output node's group; nothing is deleted
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: SPEC §3.3 (O covers every row once)
{{ target | create_table }} AS
SELECT f.rid, nd.gid, false AS deleted, false AS sa_suppressed
FROM {{ final | table }} AS f
JOIN {{ nodes | table }} AS nd ON nd.node = f.node
