/* purpose: leaf -> its label at one ARX level (0 = the leaf itself, height-1 = the root), for full-domain generalization */
/* params: hierarchy_id, level */
/* returns: leaf, label */
/* ref: SPEC §0.4; SPEC §5.2 (every value replaced by its ancestor) */
SELECT
  leaf,
  label
FROM ldiv.hierarchy_level
WHERE
  hierarchy_id = (
    CAST(%(hierarchy_id)s AS BIGINT)
  )
  AND level = (
    CAST(%(level)s AS BIGINT)
  )
