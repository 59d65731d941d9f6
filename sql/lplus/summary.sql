-- purpose: statistics of the chosen cut on the histogram: partitions, rows, deleted rows, rows with a suppressed SA value
-- params: none
-- returns: partitions, rows, deleted, sa_suppressed, published_partitions
-- ref: SPEC §5.3–5.4 (cross-check of the search's decisions before the release is written)
SELECT count(DISTINCT c.gid) AS partitions,
       CAST(coalesce(sum(h.n), 0) AS BIGINT) AS rows,
       CAST(coalesce(sum(c.n_delete), 0) AS BIGINT) AS deleted,
       CAST(coalesce(sum(CASE WHEN c.suppress THEN h.n - c.n_delete ELSE 0 END), 0) AS BIGINT) AS sa_suppressed,
       count(DISTINCT CASE WHEN h.n > c.n_delete THEN c.gid END) AS published_partitions
FROM {{ cells | table }} AS c
JOIN (
    SELECT {% for i in range(1, d + 1) %}{{ ('l' ~ i) | ident }}, {% endfor %}s, k, count(*) AS n
    FROM {{ rows | table }}
    GROUP BY ALL
) AS h
  ON {% for i in range(1, d + 1) %}h.{{ ('l' ~ i) | ident }} = c.{{ ('l' ~ i) | ident }} AND {% endfor %}h.s IS NOT DISTINCT FROM c.s
 AND h.k IS NOT DISTINCT FROM c.k
