-- purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id (tp/sa_ids.sql); all rows, or only those of one group of an assignment
-- params: r_gid, seed
-- hints: joins-in-order
-- returns: rid, sid, c1..cd (ranks), keyed (seed read only then): and tie (the seeded key of the source row id, _macros/seeded_key.sql), in no order (Hilbert-l orders the rows by curve key and tie, else rid); the domains' sizes: hilbert/domain_sizes.sql
-- ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed)
--      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL
--      hashes as they are, where a null-safe equality is hashed through both sides cast to text
--      keyed: the source is read as it is (TP+), so its ties fall by the seeded key, in the order of the seeded copy's row ids
--      joins-in-order: the group's rows are found first, then their values looked up (PostgreSQL looked up all the
--      source's values first)
{% set null_safe = null_safe | default(true) %}
{% if keyed %}
WITH ldiv_keyed AS (
{% endif %}
SELECT
    CAST(src.rowid AS BIGINT) AS rid,
{% if keyed %}
    CAST(src.rowid AS BIGINT) AS ldiv_k,
{% endif %}
    s.sid,
{% for c in qi %}
    {{ ('dom' ~ loop.index) | ident }}.r AS {{ ('c' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }} AS src
{% if assignment is not none %}
JOIN {{ assignment | table }} AS asg ON asg.rid = src.rowid AND asg.gid = $r_gid
{% endif %}
JOIN {{ sa_ids | table }} AS s ON src.{{ sa | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} s.v
{% for c in qi %}
JOIN {{ domains | table }} AS {{ ('dom' ~ loop.index) | ident }}
    ON {{ ('dom' ~ loop.index) | ident }}.i = {{ loop.index }}
    AND src.{{ c | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} {{ ('dom' ~ loop.index) | ident }}.{{ ('v' ~ loop.index) | ident }}
{% endfor %}
{% if keyed %}
),
{% include "_macros/seeded_key.sql" %}

SELECT rid, sid{% for c in qi %}, {{ ('c' ~ loop.index) | ident }}{% endfor %}, ldiv_key AS tie
FROM ldiv_keys
{% endif %}
