-- purpose: the verdicts of a written release on both of its partitions (by group id, by QI labels) in one query: per partition and SA the table-level statistics of partition/summary.sql, and the violations of privacy/summary.sql
-- params: worst
-- returns: part (1 = by group id, 2 = by QI labels), s, groups, rows, k, distinct_l, min_entropy, freq_candidates, violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size)
-- ref: DESIGN §6 (re-verification on the written table); SPEC §0.2; issue 12 (both verifications read one aggregate)
WITH st AS (
    SELECT 1 AS part, s, size, n_values, h, entropy FROM {{ stats_group | table }}
    UNION ALL
    SELECT 2 AS part, s, size, n_values, h, entropy FROM {{ stats_labels | table }}
), r AS (
    SELECT *, CASE WHEN h > 0 THEN size / h END AS ratio FROM st
), m AS (
    SELECT part, s, min(ratio) AS min_ratio FROM r GROUP BY part, s
), summ AS (
    SELECT
        r.part,
        r.s,
        count(*) AS groups,
        CAST(sum(size) AS BIGINT) AS rows,
        min(size) AS k,
        min(n_values) AS distinct_l,
        min(entropy) AS min_entropy,
        list(DISTINCT [size, h]) FILTER (WHERE ratio <= m.min_ratio * (1 + 1e-9)) AS freq_candidates
    FROM r JOIN m ON r.part = m.part AND r.s = m.s
    GROUP BY r.part, r.s
), vd AS (
    SELECT 1 AS part, gid, size, ok, severity FROM {{ verdict_group | table }}
    UNION ALL
    SELECT 2 AS part, gid, size, ok, severity FROM {{ verdict_labels | table }}
), vs AS (
    SELECT
        part,
        count(*) FILTER (WHERE NOT ok) AS violating_groups,
        CAST(coalesce(sum(size) FILTER (WHERE NOT ok), 0) AS BIGINT) AS violating_rows,
        list(gid ORDER BY severity DESC, size DESC, gid) FILTER (WHERE NOT ok) AS violators
    FROM vd
    GROUP BY part
)
SELECT
    summ.part,
    summ.s,
    summ.groups,
    summ.rows,
    summ.k,
    summ.distinct_l,
    summ.min_entropy,
    summ.freq_candidates,
    coalesce(vs.violating_groups, 0) AS violating_groups,
    coalesce(vs.violating_rows, 0) AS violating_rows,
    coalesce(list_slice(vs.violators, 1, $worst), []) AS worst_gids
FROM summ LEFT JOIN vs ON vs.part = summ.part
ORDER BY summ.part, summ.s
