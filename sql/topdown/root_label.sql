-- purpose: top-down: the root label of one QI's hierarchy, which a NULL QI value (with --null-as-value) is published as
-- params: hierarchy_id
-- returns: label (no row for an unknown hierarchy)
-- ref: SPEC §3.3; topdown/labels.sql (the same label for a NULL value)
SELECT label FROM ldiv.hierarchy_node WHERE hierarchy_id = $hierarchy_id AND node_id = 0
