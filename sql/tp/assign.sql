-- purpose: TP's assignment: in each cell the `kept` minus `moved` rows with the smallest row ids stay in their QI-group, the others (largest row ids first) join the residue group $r_gid
-- params: gids, sids, moves, r_gid
-- returns: creates target(rid, gid, deleted, sa_suppressed); ($gids, $sids, $moves) = rows moved in phases two and three per cell
-- ref: SPEC §1.7 (the row with the largest row id leaves first), §1.8 (output: remaining QI-groups and R)
{{ target | create_table }} AS
WITH extra AS (
    SELECT
        unnest(CAST($gids AS BIGINT[])) AS gid,
        unnest(CAST($sids AS BIGINT[])) AS sid,
        unnest(CAST($moves AS BIGINT[])) AS moved
), keep AS (
    SELECT c.*, c.kept - coalesce(e.moved, 0) AS stay
    FROM {{ cells | table }} AS c
    LEFT JOIN extra AS e ON e.gid = c.gid AND e.sid = c.sid
), placed AS (
    SELECT
        src.rowid AS rid,
        k.gid,
        k.stay,
        row_number() OVER (PARTITION BY k.gid, k.sid ORDER BY src.rowid) AS pos
    FROM {{ source | table }} AS src
    JOIN keep AS k
        ON {% for c in qi %}src.{{ c | ident }} IS NOT DISTINCT FROM k.{{ ('k' ~ loop.index) | ident }} AND {% endfor %}src.{{ sa | ident }} IS NOT DISTINCT FROM k.v
)
SELECT
    CAST(rid AS BIGINT) AS rid,
    CAST(CASE WHEN pos <= stay THEN gid ELSE $r_gid END AS BIGINT) AS gid,
    false AS deleted,
    false AS sa_suppressed
FROM placed
