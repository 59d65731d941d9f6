-- purpose: the table-level statistics of a partition, per SA: groups, rows, k, min distinct, min entropy, and the candidates for the exact frequency l
-- params: none
-- returns: s, groups, rows, k, distinct_l, min_entropy, freq_candidates (list of [size, h] whose size/h is within 1e-9 of the minimum; exact choice in Python)
-- ref: SPEC §0.2; issue 2 item 7 (frequency l = min |G|/h(G), entropy l = exp(min entropy))
WITH r AS (
    SELECT *, CASE WHEN h > 0 THEN size / h END AS ratio FROM {{ stats | table }}
), m AS (
    SELECT s, min(ratio) AS min_ratio FROM r GROUP BY s
)
SELECT
    r.s,
    count(*) AS groups,
    CAST(sum(size) AS BIGINT) AS rows,
    min(size) AS k,
    min(n_values) AS distinct_l,
    min(entropy) AS min_entropy,
    list(DISTINCT [size, h]) FILTER (WHERE ratio <= m.min_ratio * (1 + 1e-9)) AS freq_candidates
FROM r JOIN m ON r.s = m.s
GROUP BY r.s
ORDER BY r.s
