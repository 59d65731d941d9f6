-- purpose: every distinct QI label of the release, classified: a numeric range 'lo-hi' on an attribute whose labels are intervals ('interval', first), a hierarchy node ('leaf'/'node'), '*' ('star'), a domain value ('leaf'), a numeric interval 'lo-hi' or number ('interval'), else 'unknown'; with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each; with $flat, a suppression release (values and '*' alone, no hierarchy read), no label is a hierarchy node: '*' is the whole domain even where a stored hierarchy has a node '*'
-- params: table_name, qi_names, flat
-- returns: creates target(attr, label, rows, kind, hierarchy_id, node_id, lo, hi, code); lo/hi: node range, parsed interval, or the leaf's number (on an integer attribute: distances from its least domain value, read exactly; a node's left NULL, metrics/attribute_summary.sql takes its cover's least and greatest value, the same range exactly); code: the label's 0-based number in text order per attribute (KL's integer coding)
-- ref: SPEC §0.5 (output forms: LCA label, "lo-hi" interval, *), §0.7
--      the interval pattern is matched in the bytes' order (COLLATE "C"): a QI column of a nondeterministic
--      collation (PostgreSQL: case-insensitive ICU) passes its collation to the labels, and PostgreSQL
--      refuses regular expressions under such a collation
{% set release_table = release | table %}
{% set counted = counted | default(false) %}
{{ target | create_table }} AS
WITH
{% include "_macros/metrics_attrs.sql" %},
rel AS (
{% for c in rqi %}
    SELECT {{ loop.index }} AS attr, CAST({{ c | ident }} AS VARCHAR) AS label, {% if counted %}CAST(sum(n) AS BIGINT){% else %}count(*){% endif %} AS rows
    FROM {{ release_table }}
    GROUP BY ALL
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
base AS (
    -- an integer attribute's numbers are distances from its least domain value (metrics/domain.sql)
    SELECT
        d.attr,
        min(CASE WHEN regexp_matches(d.value COLLATE "C", '^-?[0-9]{1,38}$') THEN CAST(d.value AS DECIMAL(38, 0)) END) AS base
    FROM {{ domain | table }} AS d
    JOIN attrs AS a ON a.attr = d.attr
    WHERE a.is_integer
    GROUP BY d.attr
),
bounds AS (
    SELECT
        rel.attr,
        rel.label,
        rel.rows,
        a.is_numeric,
        a.intervals,
        a.is_integer,
        a.hierarchy_id,
        b.base,
        nullif(regexp_extract(rel.label COLLATE "C", '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$', 1), '') AS lo_text,
        nullif(regexp_extract(rel.label COLLATE "C", '^(-?[0-9]+(?:[.][0-9]+)?)(?:-(-?[0-9]+(?:[.][0-9]+)?))?$', 2), '') AS hi_text
    FROM rel
    JOIN attrs AS a ON a.attr = rel.attr
    LEFT JOIN base AS b ON b.attr = rel.attr
),
parsed AS (
    -- on an integer attribute a whole bound is read exactly, as its distance from the base
    SELECT
        *,
        CASE
            WHEN base IS NULL THEN TRY_CAST(lo_text AS DOUBLE)
            ELSE coalesce(
                CAST(CAST(CASE WHEN strpos(lo_text, '.') = 0 AND length(lo_text) <= 38 THEN lo_text END AS DECIMAL(38, 0)) - base AS DOUBLE),
                TRY_CAST(lo_text AS DOUBLE) - CAST(base AS DOUBLE))
        END AS iv_lo,
        CASE
            WHEN base IS NULL THEN TRY_CAST(hi_text AS DOUBLE)
            ELSE coalesce(
                CAST(CAST(CASE WHEN strpos(hi_text, '.') = 0 AND length(hi_text) <= 38 THEN hi_text END AS DECIMAL(38, 0)) - base AS DOUBLE),
                TRY_CAST(hi_text AS DOUBLE) - CAST(base AS DOUBLE))
        END AS iv_hi
    FROM bounds
)
SELECT
    p.attr,
    p.label,
    p.rows,
    CASE
        WHEN p.intervals AND p.is_numeric AND p.iv_hi IS NOT NULL THEN 'interval'
        WHEN n.node_id IS NOT NULL AND n.height = 0 THEN 'leaf'
        WHEN n.node_id IS NOT NULL THEN 'node'
        WHEN p.label = '*' THEN 'star'
        WHEN d.value IS NOT NULL THEN 'leaf'
        WHEN p.is_numeric AND p.iv_lo IS NOT NULL THEN 'interval'
        ELSE 'unknown'
    END AS kind,
    p.hierarchy_id,
    n.node_id,
    CASE
        WHEN p.intervals AND p.is_numeric AND p.iv_hi IS NOT NULL THEN p.iv_lo
        WHEN n.node_id IS NOT NULL AND p.base IS NOT NULL THEN NULL  -- exact: its cover's least value
        WHEN n.node_id IS NOT NULL THEN n.lo
        WHEN p.label = '*' THEN NULL
        WHEN d.value IS NOT NULL THEN d.num
        ELSE p.iv_lo
    END AS lo,
    CASE
        WHEN p.intervals AND p.is_numeric AND p.iv_hi IS NOT NULL THEN coalesce(p.iv_hi, p.iv_lo)
        WHEN n.node_id IS NOT NULL AND p.base IS NOT NULL THEN NULL  -- exact: its cover's greatest value
        WHEN n.node_id IS NOT NULL THEN n.hi
        WHEN p.label = '*' THEN NULL
        WHEN d.value IS NOT NULL THEN d.num
        ELSE coalesce(p.iv_hi, p.iv_lo)
    END AS hi,
    CAST(row_number() OVER (PARTITION BY p.attr ORDER BY p.label) - 1 AS INTEGER) AS code
FROM parsed AS p
LEFT JOIN ldiv.hierarchy_node AS n ON n.hierarchy_id = p.hierarchy_id AND n.label = p.label AND NOT $flat
LEFT JOIN {{ domain | table }} AS d ON d.attr = p.attr AND d.value = p.label
