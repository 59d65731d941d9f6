/* purpose: stored taxonomies as preorder arrays (the one array view the algorithms build on) */
/* params: hids */
/* returns: hierarchy_id, node_id, label, parent_id (-1 for the root), depth, height, n_leaves, last_leaf — ordered by hierarchy_id, node_id */
/* ref: SPEC §0.4 (preorder index; subtree of a node = node_id..last_leaf), §0.7 (NCP = #leaves(LCA)/|A|) */
SELECT
  hierarchy_id,
  node_id,
  label,
  COALESCE(parent_id, -1) AS parent_id,
  depth,
  height,
  n_leaves,
  last_leaf
FROM ldiv.hierarchy_node
WHERE
  CASE
    WHEN hierarchy_id IS NULL
    THEN NULL
    ELSE COALESCE(hierarchy_id = ANY(
      (
        CAST(%(hids)s AS BIGINT[])
      )
    ), FALSE)
  END
ORDER BY
  hierarchy_id,
  node_id
