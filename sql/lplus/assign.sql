-- purpose: l+-Optimize assignment: every row gets its cell's partition; in a cell that loses n rows the n largest row ids are deleted; suppressed cells publish "unknown"
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: SPEC §5.3 (vioRec/allRec delete rows, vioSA/allSA replace SA values; which rows: the largest row id [D])
{{ target | create_table }} AS
WITH j AS (
    SELECT r.rid, c.gid, c.n_delete, c.suppress,
           row_number() OVER (
               PARTITION BY {% for i in range(1, d + 1) %}r.{{ ('l' ~ i) | ident }}, {% endfor %}r.s, r.k
               ORDER BY r.rid DESC
           ) AS rn
    FROM {{ rows | table }} AS r
    JOIN {{ cells | table }} AS c
      ON {% for i in range(1, d + 1) %}c.{{ ('l' ~ i) | ident }} = r.{{ ('l' ~ i) | ident }} AND {% endfor %}c.s IS NOT DISTINCT FROM r.s
     AND c.k IS NOT DISTINCT FROM r.k
)
SELECT rid, gid, rn <= n_delete AS deleted, suppress AND rn > n_delete AS sa_suppressed
FROM j
