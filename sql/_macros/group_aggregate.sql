{#- Included fragment (not a statement): per group and SA, size, distinct values, pillar height, entropy and
    the collision flag, from the histogram table (Context: hist) or, with from_source, from the histogram's
    rows as a subquery (Context: as for _macros/histogram_rows.sql, or for the fragment rows_macro names),
    adding each group's known-value counts: those above 1 as an unordered list (counts, NULL when there is
    none) and the number of values counted once (ones): most values of a large table's small groups are
    counted once (a million-row part on PostgreSQL: 0.75 s with every count listed, 0.715 s so). With one
    SA (s = 1 in every row) the rows are grouped by gid alone: their order from the histogram's
    aggregation then serves the statistics' without a further sort. With from_source and listed false
    (default true), no counts and no ones: the columns of the statistics from the histogram table. -#}
{% set one_sa = from_source and sa | length == 1 %}
{% set listed = from_source and (listed | default(true)) %}
SELECT
    gid,
    s,
    size,
    n_values,
    h,
    CAST(known AS BIGINT) AS known,
    CASE WHEN n_values = 0 THEN NULL ELSE greatest(0.0, ln(known) - n_ln_n / known) END AS entropy,
    collided{% if listed %},
    counts,
    ones{% endif %}

FROM (
    SELECT
        gid,
        {% if one_sa %}1 AS s{% else %}s{% endif %},
        CAST(sum(CAST(n AS DOUBLE)) AS BIGINT) AS size,
        count(*) FILTER (WHERE NOT unknown) AS n_values,
        CAST(coalesce(max(n) FILTER (WHERE NOT unknown), 0) AS BIGINT) AS h,
        coalesce(sum(CAST(n AS DOUBLE)) FILTER (WHERE NOT unknown), 0) AS known,
        sum(n * ln(n)) FILTER (WHERE NOT unknown) AS n_ln_n,
        min(gid2) <> max(gid2) AS collided{% if listed %},
        list(n) FILTER (WHERE NOT unknown AND n > 1) AS counts,
        count(*) FILTER (WHERE NOT unknown AND n = 1) AS ones{% endif %}

{% if from_source %}
    FROM (
{% include rows_macro | default("_macros/histogram_rows.sql") %}
    ) AS hs
{% else %}
    FROM {{ hist | table }}
{% endif %}
    GROUP BY gid{% if not one_sa %}, s{% endif %}

) AS g
