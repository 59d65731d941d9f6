/* purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id; every source row, or (TP+) the rows TP's assignment leaves to its residue */
/* params: gids, sids, moves */
/* hints: joins-in-order */
/* returns: rid, sid, c1..cd (ranks), in no order (Hilbert-l orders the rows by curve key and tie); with rows and cells (TP+): the rows of the residue R (the rows tp/assign.sql does not keep, given the same moves) and tie, their position in TP's tie order (tp/rows.sql: the seeded key, or the seeded copy's row id); else every row with its SA id from tp/sa_ids.sql, Hilbert-l's tie its rid; the domains' sizes: hilbert/domain_sizes.sql */
/* ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed); _macros/tp_placed.sql */
/*      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL */
/*      hashes as they are, where a null-safe equality is hashed through both sides cast to text */
/*      TP+: the residue's rows are found from TP's row map and cells, not from its assignment, so that the assignment */
/*      of the rows that stay can be written while Hilbert-l groups these (algorithms/tp) */
/*      joins-in-order: the residue's rows are found first, then their values looked up (PostgreSQL looked up all the */
/*      source's values first) */
WITH extra AS (
  SELECT
    UNNEST(CAST($gids AS BIGINT[])) AS gid,
    UNNEST(CAST($sids AS BIGINT[])) AS sid,
    UNNEST(CAST($moves AS BIGINT[])) AS moved
), keep AS (
  SELECT
    c.gid,
    c.sid,
    c.g,
    c.n,
    c.kept - COALESCE(e.moved, 0) AS stay
  FROM "temp"."main"."wk tp cells's" AS c
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
  FROM "temp"."main"."wk tp rows's" AS r
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
), gone AS (
  SELECT
    tie,
    src,
    sid
  FROM placed
  WHERE
    stay <= 0
  UNION ALL
  SELECT
    tie,
    src,
    sid
  FROM split
  WHERE
    k > stay
)
SELECT
  CAST(x.src AS BIGINT) AS rid,
  x.sid,
  x.tie,
  "dom1".r AS "c1",
  "dom2".r AS "c2",
  "dom3".r AS "c3",
  "dom4".r AS "c4"
FROM gone AS x
JOIN "main"."select" AS src
  ON src.rowid = x.src
JOIN "temp"."main"."wk hilbert domains's" AS "dom1"
  ON "dom1".i = 1 AND src."it's" IS NOT DISTINCT FROM "dom1"."v1"
JOIN "temp"."main"."wk hilbert domains's" AS "dom2"
  ON "dom2".i = 2 AND src."a""b" IS NOT DISTINCT FROM "dom2"."v2"
JOIN "temp"."main"."wk hilbert domains's" AS "dom3"
  ON "dom3".i = 3 AND src."Zip Code" IS NOT DISTINCT FROM "dom3"."v3"
JOIN "temp"."main"."wk hilbert domains's" AS "dom4"
  ON "dom4".i = 4 AND src."select" IS NOT DISTINCT FROM "dom4"."v4"
