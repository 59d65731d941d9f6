-- purpose: the optimal search's compressed table, built once: (leaf node per QI, SA values, class) -> number of rows
-- params: hids
-- returns: l1..ld (preorder node id of the row's value among the leaves of the QI's hierarchy; NULL = the value is no leaf), s1..sm (SA values as text), k (class as text, NULL without a class column), n (rows); in no particular order (the coding finds equal leaf vectors by hashing)
-- ref: DESIGN §5 (compress first); Kohlmayer et al., Flash (2012): a lattice node is judged on grouped data, never on the rows
SELECT
{% for c in qi %}
    nd{{ loop.index }}.node_id AS {{ ('l' ~ loop.index) | ident }},
{% endfor %}
{% for c in sa %}
    CAST(src.{{ c | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }},
{% endfor %}
    {% if klass is not none %}CAST(src.{{ klass | ident }} AS VARCHAR){% else %}CAST(NULL AS VARCHAR){% endif %} AS k,
    count(*) AS n
FROM {{ source | table }} AS src
{% for c in qi %}
LEFT JOIN ldiv.hierarchy_node AS nd{{ loop.index }}
  ON nd{{ loop.index }}.hierarchy_id = list_extract($hids, {{ loop.index }})
 AND nd{{ loop.index }}.height = 0
 AND nd{{ loop.index }}.label = CAST(src.{{ c | ident }} AS VARCHAR)
{% endfor %}
GROUP BY ALL
