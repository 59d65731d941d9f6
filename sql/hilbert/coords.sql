-- purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id; every source row, or (TP+) the rows TP's assignment leaves to its residue
-- params: gids, sids, moves
-- hints: joins-in-order
-- returns: rid, sid, c1..cd (ranks), in no order (Hilbert-l orders the rows by curve key and tie); with rows and cells (TP+): the rows of the residue R (the rows tp/assign.sql does not keep, given the same moves) and tie, their position in TP's tie order (tp/rows.sql: the seeded key, or the seeded copy's row id); else every row with its SA id from tp/sa_ids.sql, Hilbert-l's tie its rid; the domains' sizes: hilbert/domain_sizes.sql
-- ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed); _macros/tp_placed.sql
--      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL
--      hashes as they are, where a null-safe equality is hashed through both sides cast to text
--      TP+: the residue's rows are found from TP's row map and cells, not from its assignment, so that the assignment
--      of the rows that stay can be written while Hilbert-l groups these (algorithms/tp)
--      joins-in-order: the residue's rows are found first, then their values looked up (PostgreSQL looked up all the
--      source's values first)
{% set null_safe = null_safe | default(true) %}
{% set residue = rows is defined and rows is not none %}
{% if residue %}
WITH {% include "_macros/tp_placed.sql" %}, gone AS (
    SELECT tie, src, sid
    FROM placed
    WHERE stay <= 0
    UNION ALL
    SELECT tie, src, sid
    FROM split
    WHERE k > stay
)
{% endif %}
SELECT
{% if residue %}
    CAST(x.src AS BIGINT) AS rid,
    x.sid,
    x.tie,
{% else %}
    CAST(src.rowid AS BIGINT) AS rid,
    s.sid,
{% endif %}
{% for c in qi %}
    {{ ('dom' ~ loop.index) | ident }}.r AS {{ ('c' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
{% if residue %}
FROM gone AS x
JOIN {{ source | table }} AS src ON src.rowid = x.src
{% else %}
FROM {{ source | table }} AS src
JOIN {{ sa_ids | table }} AS s ON src.{{ sa | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} s.v
{% endif %}
{% for c in qi %}
JOIN {{ domains | table }} AS {{ ('dom' ~ loop.index) | ident }}
    ON {{ ('dom' ~ loop.index) | ident }}.i = {{ loop.index }}
    AND src.{{ c | ident }} {% if null_safe %}IS NOT DISTINCT FROM{% else %}={% endif %} {{ ('dom' ~ loop.index) | ident }}.{{ ('v' ~ loop.index) | ident }}
{% endfor %}
