-- purpose: per QI attribute, the sums the metrics need: NCP numerators (categorical: rows x #leaves of non-leaf labels; numeric: rows x clipped span), LM numerator rows x (#leaves - 1), ARX share numerator rows x #leaves, '*' cells, and labels that cover nothing
-- params: table_name, qi_names
-- returns: attr, is_numeric, domain_size, min_t, max_t, cells, ncp_cat, ncp_span, lm_num, cover_sum, stars, bad_rows, bad_label (one row per attribute, by attr)
-- ref: SPEC §0.7 (NCP, LM), §5.4 (LM per cell); ARX MetricMDNMLoss (share = leaves under the label / domain size)
WITH
{% include "_macros/metrics_attrs.sql" %},
dom AS (
    SELECT
        attr,
        count(*) AS domain_size,
        min(num) FILTER (WHERE source_rows > 0) AS min_t,
        max(num) FILTER (WHERE source_rows > 0) AS max_t
    FROM {{ domain | table }}
    GROUP BY attr
),
cov AS (
    SELECT attr, label, count(*) AS n_cover, min(num) AS lo, max(num) AS hi
    FROM {{ cover | table }}
    GROUP BY attr, label
),
lab AS (
    SELECT
        l.attr,
        l.label,
        l.kind,
        l.rows,
        coalesce(c.n_cover, 0) AS n_cover,
        coalesce(l.lo, c.lo) AS lo,
        coalesce(l.hi, c.hi) AS hi
    FROM {{ labels | table }} AS l
    LEFT JOIN cov AS c ON c.attr = l.attr AND c.label = l.label
)
SELECT
    a.attr,
    a.is_numeric,
    d.domain_size,
    d.min_t,
    d.max_t,
    CAST(coalesce(sum(lab.rows), 0) AS BIGINT) AS cells,
    CAST(coalesce(sum(lab.rows * lab.n_cover) FILTER (WHERE lab.kind <> 'leaf'), 0) AS HUGEINT) AS ncp_cat,
    coalesce(sum(
        lab.rows * CASE
            WHEN lab.kind = 'leaf' THEN 0
            WHEN lab.kind = 'star' THEN d.max_t - d.min_t
            ELSE greatest(least(lab.hi, d.max_t) - greatest(lab.lo, d.min_t), 0)
        END
    ), 0) AS ncp_span,
    CAST(coalesce(sum(lab.rows * (lab.n_cover - 1)) FILTER (WHERE lab.n_cover > 0), 0) AS HUGEINT) AS lm_num,
    CAST(coalesce(sum(lab.rows * lab.n_cover), 0) AS HUGEINT) AS cover_sum,
    CAST(coalesce(sum(lab.rows) FILTER (WHERE lab.label = '*'), 0) AS BIGINT) AS stars,
    CAST(coalesce(sum(lab.rows) FILTER (WHERE lab.kind = 'unknown' OR lab.n_cover = 0), 0) AS BIGINT) AS bad_rows,
    min(coalesce(lab.label, 'NULL')) FILTER (WHERE lab.kind = 'unknown' OR lab.n_cover = 0) AS bad_label
FROM attrs AS a
JOIN dom AS d ON d.attr = a.attr
LEFT JOIN lab ON lab.attr = a.attr
GROUP BY a.attr, a.is_numeric, d.domain_size, d.min_t, d.max_t
ORDER BY a.attr
