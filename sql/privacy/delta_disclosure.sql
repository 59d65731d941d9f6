-- purpose: δ-disclosure verdict per group: |ln(p(v|G) / p(v))| < δ for every baseline value v (paper: a value absent from G fails; with arx: log2 and the values present in G only)
-- params: delta
-- returns: creates target(gid, size, ok, severity, num, den); severity = the group's largest |log ratio| (worst SA; infinity where a value is absent, or the group has no known value), num/den NULL (a logarithm is no fraction)
-- ref: Brickell & Shmatikov 2008 Def. 4 (δ-disclosure privacy, strict <); the reference tool's variant (arx): log2, values absent from G ignored; p(v) = the baseline (whole input)
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, e AS (
    SELECT gid, s, sum(n) AS size, max(m) AS m,
           max(CASE WHEN unknown THEN 0.0
                    WHEN bn = 0 THEN 'infinity'::DOUBLE
                    ELSE abs(ln(CAST(n * bt AS DOUBLE) / CAST(bn * m AS DOUBLE))) END) AS worst,
           count(*) FILTER (WHERE NOT unknown AND bn > 0) AS present,
           max(bm) AS bm
    FROM cells
    GROUP BY gid, s
), w AS (
    SELECT gid, s, size,
           CASE WHEN m = 0 THEN 'infinity'::DOUBLE
{% if arx %}
                ELSE worst / ln(2.0) END AS sev
{% else %}
                WHEN present < bm THEN 'infinity'::DOUBLE ELSE worst END AS sev
{% endif %}
    FROM e
), d AS (
    SELECT gid, s, size, sev < $delta AS ok, sev AS severity, CAST(NULL AS HUGEINT) AS num, CAST(NULL AS HUGEINT) AS den
    FROM w
)
{% include "_macros/distribution_verdict.sql" %}
