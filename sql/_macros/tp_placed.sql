{#- Included fragment (not a statement): CTEs placing TP's rows in their cells, for tp/assign.sql and
    hilbert/coords.sql (TP+'s residue). Context: rows (tp/rows.sql), cells (tp/cells.sql); params $gids, $sids,
    $moves (the rows moved in phases two and three per cell). Included after WITH; ends with the CTEs placed:
    every row (tie, src, g, sid) with its cell's gid, size n and the count that stays, stay = kept - moved;
    and split: the rows of the cells that are split (0 < stay < n), with k, their row number in the cell in
    the tie order. In a cell the stay rows first in the tie order stay in its QI-group: all of them where
    stay >= n, none where stay <= 0, else those with k <= stay (SPEC §1.7: the row with the largest row id
    leaves first). -#}
extra AS (
    SELECT
        unnest(CAST($gids AS BIGINT[])) AS gid,
        unnest(CAST($sids AS BIGINT[])) AS sid,
        unnest(CAST($moves AS BIGINT[])) AS moved
), keep AS (
    SELECT c.gid, c.sid, c.g, c.n, c.kept - coalesce(e.moved, 0) AS stay
    FROM {{ cells | table }} AS c
    LEFT JOIN extra AS e ON e.gid = c.gid AND e.sid = c.sid
), placed AS (
    SELECT r.tie, r.src, r.g, r.sid, k.gid, k.n, k.stay
    FROM {{ rows | table }} AS r
    JOIN keep AS k ON k.g = r.g AND k.sid = r.sid
), split AS (
    SELECT tie, src, g, sid, gid, stay, row_number() OVER (PARTITION BY g, sid ORDER BY tie) AS k
    FROM placed
    WHERE stay > 0 AND stay < n
)
