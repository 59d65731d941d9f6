DROP TABLE IF EXISTS "pg_temp"."wk tp assignment 2's";
/* purpose: TP's assignment: in each cell the `kept` minus `moved` rows first in the tie order (tp/rows.sql: the seeded key's order) stay in their QI-group, the others (the last first) join the residue group (param r_gid); with staying_only (TP+) the staying rows alone */
/* params: gids, sids, moves, r_gid */
/* returns: creates target(rid, gid, deleted, sa_suppressed), rid the source row id (tp/rows.sql's src); ($gids, $sids, $moves) = rows moved in phases two and three per cell; only cells that are split need row numbers */
/* ref: SPEC §1.7 (the row with the largest row id leaves first), §1.8 (output: remaining QI-groups and R); _macros/tp_placed.sql; */
/*      staying_only: TP+ inserts the residue's rows after Hilbert-l has grouped them (hilbert/coords.sql reads them) */
CREATE TABLE "pg_temp"."wk tp assignment 2's" AS
WITH extra AS (
  SELECT
    UNNEST(CAST((
      CAST(%(gids)s AS BIGINT[])
    ) AS BIGINT[])) AS gid,
    UNNEST(CAST((
      CAST(%(sids)s AS BIGINT[])
    ) AS BIGINT[])) AS sid,
    UNNEST(CAST((
      CAST(%(moves)s AS BIGINT[])
    ) AS BIGINT[])) AS moved
), keep AS (
  SELECT
    c.gid,
    c.sid,
    c.g,
    c.n,
    c.kept - COALESCE(e.moved, 0) AS stay
  FROM "pg_temp"."wk tp cells's" AS c
  LEFT JOIN extra AS e
    ON e.gid = c.gid AND e.sid = c.sid
), placed AS (
  SELECT
    r.tie,
    r.src,
    r.g,
    r.sid,
    k.gid,
    k.n,
    k.stay
  FROM "pg_temp"."wk tp rows's" AS r
  JOIN keep AS k
    ON k.g = r.g AND k.sid = r.sid
), split AS (
  SELECT
    tie,
    src,
    g,
    sid,
    gid,
    stay,
    ROW_NUMBER() OVER (PARTITION BY g, sid ORDER BY tie) AS k
  FROM placed
  WHERE
    stay > 0 AND stay < n
), decided AS (
  SELECT
    src,
    CASE WHEN stay >= n THEN gid ELSE (
      CAST(%(r_gid)s AS BIGINT)
    ) END AS gid
  FROM placed
  WHERE
    stay <= 0 OR stay >= n
  UNION ALL
  SELECT
    src,
    CASE WHEN k <= stay THEN gid ELSE (
      CAST(%(r_gid)s AS BIGINT)
    ) END AS gid
  FROM split
)
SELECT
  CAST(src AS BIGINT) AS rid,
  CAST(gid AS BIGINT) AS gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM decided;
ANALYZE "pg_temp"."wk tp assignment 2's"
