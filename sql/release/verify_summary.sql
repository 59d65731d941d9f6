-- purpose: the verdicts of a written release on each partition it reveals (by group id and QI labels, by QI labels) in one query: per partition and SA the table-level statistics of partition/summary.sql, and the violations of privacy/summary.sql
-- params: worst
-- returns: part (1, 2, ...: the partitions in the order of stats and verdicts), s, groups, rows, k, distinct_l, min_entropy, freq_candidates, violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size)
-- ref: DESIGN §6 (re-verification on the written table, on every partition it reveals); SPEC §0.2; issue 12 (every verification reads one aggregate); issue 51 (the model verified per partition)
WITH st AS (
{% for stats_table in stats %}
    SELECT {{ loop.index }} AS part, s, size, n_values, h, entropy FROM {{ stats_table | table }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
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
{% for verdict_table in verdicts %}
    SELECT {{ loop.index }} AS part, gid, size, ok, severity FROM {{ verdict_table | table }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
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
