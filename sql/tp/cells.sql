-- purpose: TP phase one in closed form: the QI-groups × SA values of the source with their counts, and the count each cell keeps, min(n, H*) with H* the group's cap
-- params: l
-- returns: creates target(gid, sid, k1..kd, v, n, kept): gid = QI-group id and sid = SA id, both 1-based in first-appearance order; v = the SA value; n - kept rows of the cell go to the residue R
-- ref: SPEC §1.4 (H* = max{H ≤ h : Σ_v min(Q(v), H) ≥ l·H} = min(h, min_{0≤j<l} ⌊S_j/(l−j)⌋), S_j = the group's size minus its j largest counts; H* = 0 with fewer than l values), §0.6 (first-appearance order); Xiao/Yi/Tao 2010 §5.2
{{ target | create_table }} AS
WITH cell AS (
    SELECT
{% for c in qi %}
        {{ c | ident }} AS {{ ('k' ~ loop.index) | ident }},
{% endfor %}
        {{ sa | ident }} AS v,
        count(*) AS n,
        min(rowid) AS first_rid
    FROM {{ source | table }}
    GROUP BY ALL
), grp AS (
    SELECT
{% for c in qi %}
        {{ ('k' ~ loop.index) | ident }},
{% endfor %}
        row_number() OVER (ORDER BY min(first_rid)) AS gid
    FROM cell
    GROUP BY ALL
), val AS (
    SELECT v, row_number() OVER (ORDER BY min(first_rid)) AS sid
    FROM cell
    GROUP BY v
), ids AS (
    SELECT grp.gid, val.sid, cell.*
    FROM cell
    JOIN grp ON {% for c in qi %}grp.{{ ('k' ~ loop.index) | ident }} IS NOT DISTINCT FROM cell.{{ ('k' ~ loop.index) | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

    JOIN val ON val.v IS NOT DISTINCT FROM cell.v
), stats AS (
    SELECT gid, max(n) AS h, sum(n) AS size, count(*) AS values_in_group, list(n ORDER BY n DESC) AS counts
    FROM ids
    GROUP BY gid
), cap AS (
    SELECT s.gid, least(any_value(s.h), min((s.size - coalesce(list_sum(list_slice(s.counts, 1, j.j)), 0)) // ($l - j.j))) AS h_star
    FROM stats AS s
    CROSS JOIN range(0, $l) AS j(j)
    WHERE s.values_in_group >= $l
    GROUP BY s.gid
)
SELECT
    ids.gid,
    ids.sid,
{% for c in qi %}
    ids.{{ ('k' ~ loop.index) | ident }},
{% endfor %}
    ids.v,
    ids.n,
    CAST(least(ids.n, coalesce(cap.h_star, 0)) AS BIGINT) AS kept
FROM ids
LEFT JOIN cap ON cap.gid = ids.gid
