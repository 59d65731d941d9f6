-- purpose: (l,alpha) top-down: record the rows that reached their output node this round (rows of children routed to a final node, and rows repair moved to the parent)
-- params: none
-- returns: inserts into final(rid, node)
-- ref: SPEC §3.3 (O.append(P); a node with every attribute at a leaf has no children)
INSERT INTO {{ final | table }} (rid, node)
SELECT c.rid, coalesce(m.dest, r.dest)
FROM {{ candidates | table }} AS c
JOIN {{ route | table }} AS r ON r.node = c.node AND r.child IS NOT DISTINCT FROM c.child
LEFT JOIN {{ moved | table }} AS m ON m.rid = c.rid
WHERE m.rid IS NOT NULL OR r.attr = 0
