{#- Included fragment (not a statement) of metrics/cover.sql and its variants: the cover of the labels
    that are not intervals, three branches joined by UNION ALL: a leaf (the value itself), '*' (every
    value of the attribute) and a hierarchy node (the leaves that carry its label at some level, from
    ldiv.hierarchy_level: an equality join, where the preorder range node_id..last_leaf would be a range
    join). Reads labels and domain. #}
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = l.label
WHERE l.kind = 'leaf'
UNION ALL
SELECT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN {{ domain | table }} AS d ON d.attr = l.attr
WHERE l.kind = 'star'
UNION ALL
SELECT DISTINCT l.attr, l.label, d.value, d.num
FROM {{ labels | table }} AS l
JOIN ldiv.hierarchy_level AS hl ON hl.hierarchy_id = l.hierarchy_id AND hl.label = l.label
JOIN {{ domain | table }} AS d ON d.attr = l.attr AND d.value = hl.leaf
WHERE l.kind = 'node'
