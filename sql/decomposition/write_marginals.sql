-- purpose: write the marginals T_S: the true joint SA values of every published row, with no group id, sorted (not in row order)
-- params: none
-- returns: creates output(<SA columns>) ordered by all columns
-- ref: SPEC §4.1 (marginals; sorted so they cannot be aligned with the QID-table)
--      all_placed: the release assigned every pool row, so the pool's rows are the published ones (no join);
--      the reconciliation compares the marginals' counts with the pool rows joined to the assignment
CREATE TABLE {{ output | table }} AS
SELECT * FROM (
{% if previous %}
    SELECT * FROM {{ previous | table }}
    UNION ALL
{% endif %}
    SELECT {% for c in sa %}p.{{ slots[loop.index0] | ident }} AS {{ c | ident }}{% if not loop.last %}, {% endif %}{% endfor %}

    FROM {{ pool | table }} AS p
{% if not all_placed %}
    JOIN {{ assignment | table }} AS a ON a.rk = p.rk
{% endif %}
)
ORDER BY ALL
