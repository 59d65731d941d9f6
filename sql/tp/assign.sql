-- purpose: TP's assignment: in each cell the `kept` minus `moved` rows first in the tie order (tp/rows.sql: the seeded key's order) stay in their QI-group, the others (the last first) join the residue group (param r_gid); with staying_only (TP+) the staying rows alone
-- params: gids, sids, moves, r_gid
-- returns: creates target(rid, gid, deleted, sa_suppressed), rid the source row id (tp/rows.sql's src); ($gids, $sids, $moves) = rows moved in phases two and three per cell; only cells that are split need row numbers
-- ref: SPEC §1.7 (the row with the largest row id leaves first), §1.8 (output: remaining QI-groups and R); _macros/tp_placed.sql;
--      staying_only: TP+ inserts the residue's rows after Hilbert-l has grouped them (hilbert/coords.sql reads them)
{% set staying_only = staying_only | default(false) %}
{{ target | create_table }} AS
WITH {% include "_macros/tp_placed.sql" %}, decided AS (
{% if staying_only %}
    SELECT src, gid
    FROM placed
    WHERE stay >= n
    UNION ALL
    SELECT src, gid
    FROM split
    WHERE k <= stay
{% else %}
    SELECT src, CASE WHEN stay >= n THEN gid ELSE $r_gid END AS gid
    FROM placed
    WHERE stay <= 0 OR stay >= n
    UNION ALL
    SELECT src, CASE WHEN k <= stay THEN gid ELSE $r_gid END AS gid
    FROM split
{% endif %}
)
SELECT CAST(src AS BIGINT) AS rid, CAST(gid AS BIGINT) AS gid, false AS deleted, false AS sa_suppressed
FROM decided
