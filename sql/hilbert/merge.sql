-- purpose: TP+: TP's assignment with the residue's rows moved to the Hilbert groups of the split (rows absent from the split keep their group)
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: SPEC §1.12 (TP+ = TP, then Hilbert on R; the star-free QI-groups stay as they are)
{{ target | create_table }} AS
SELECT b.rid, coalesce(s.gid, b.gid) AS gid, b.deleted, b.sa_suppressed
FROM {{ base | table }} AS b
LEFT JOIN {{ split | table }} AS s ON s.rid = b.rid
