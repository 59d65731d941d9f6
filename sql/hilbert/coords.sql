-- purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id (tp/sa_ids.sql); all rows, or only those of one group of an assignment
-- params: r_gid
-- hints: joins-in-order
-- returns: rid, sid, c1..cd (ranks), in no order (Hilbert-l orders the rows by curve key and rid); the domains' sizes: hilbert/domain_sizes.sql
-- ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed)
--      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL
--      hashes as they are, where a null-safe equality is hashed through both sides cast to text
--      joins-in-order: the group's rows are found first, then their values looked up (PostgreSQL looked up all the
--      source's values first)
{% set null_safe = null_safe | default(true) %}
SELECT
    CAST(src.rowid AS BIGINT) AS rid,
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
