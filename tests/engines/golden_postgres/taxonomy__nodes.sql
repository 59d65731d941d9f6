/* purpose: every node of one hierarchy in preorder (left-to-right order; subtree of n = node_id..last_leaf) */
/* params: hierarchy_id */
/* returns: node_id, label, parent_id, depth, height, n_leaves, last_leaf, lo, hi */
/* ref: SPEC §0.4 (children, parent, leaves, height, preorder index) */
SELECT
  node_id,
  label,
  parent_id,
  depth,
  height,
  n_leaves,
  last_leaf,
  lo,
  hi
FROM ldiv.hierarchy_node
WHERE
  hierarchy_id = (
    CAST(%(hierarchy_id)s AS BIGINT)
  )
ORDER BY
  node_id
