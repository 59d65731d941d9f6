/* purpose: ARX rows of the leaves above full depth (a label kept for several levels); other rows are root paths */
/* params: hierarchy_id */
/* returns: leaf, label (one row per level, leaves in preorder, levels 0..height-1) */
/* ref: SPEC §0.4 (ARX-style hierarchies, one row per leaf) */
SELECT
  lv.leaf,
  lv.label
FROM ldiv.hierarchy_level AS lv
JOIN ldiv.hierarchy_node AS n
  ON n.hierarchy_id = lv.hierarchy_id AND n.label = lv.leaf
JOIN ldiv.hierarchy AS h
  ON h.hierarchy_id = lv.hierarchy_id
WHERE
  lv.hierarchy_id = (
    CAST(%(hierarchy_id)s AS BIGINT)
  )
  AND n.height = 0
  AND n.depth < h.height - 1
ORDER BY
  n.node_id,
  lv.level
