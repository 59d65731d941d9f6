/* purpose: the attacker's targets: every source row's QI value codes and the set of releases that publish it, counted per distinct pair */
/* params: deleting */
/* returns: creates target(v1..vk, present, n): v_i the code of QI i's value (value_codes.sql), present the releases holding the row as text of m characters ('1' at position r when the r-th release holds it, '0' when it deleted it), n the source rows */
/* ref: docs/decisions/0005-composition-check.md ("More than 62 releases": text has no fixed width, where a BIGINT mask held 62 releases); m (shape): the releases; positions (shape): per release with deleted rows its position r, with deleting[i] its release id, read from ldiv.release_row (the private link, never published) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose keys's" AS
WITH g AS (
  SELECT
    CAST(s."it's" AS TEXT) AS "t1",
    CAST(s."a""b" AS TEXT) AS "t2",
    CAST(s."Zip Code" AS TEXT) AS "t3",
    CAST(s."select" AS TEXT) AS "t4",
    CAST(CASE WHEN "d1".source_rowid IS NULL THEN '1' ELSE '0' END || REPEAT('1', 1) AS TEXT) AS present,
    COUNT(*) AS n
  FROM "main"."select" AS s
  LEFT JOIN (
    SELECT DISTINCT
      source_rowid
    FROM ldiv.release_row
    WHERE
      release_id = LIST_EXTRACT($deleting, 1) AND group_id IS NULL
  ) AS "d1"
    ON "d1".source_rowid = s.rowid
  GROUP BY ALL
)
SELECT
  "c1".code AS "v1",
  "c2".code AS "v2",
  "c3".code AS "v3",
  "c4".code AS "v4",
  g.present,
  g.n
FROM g
JOIN "temp"."main"."wk compose codes's" AS "c1"
  ON "c1".attr = 1 AND "c1".value = g."t1"
JOIN "temp"."main"."wk compose codes's" AS "c2"
  ON "c2".attr = 2 AND "c2".value = g."t2"
JOIN "temp"."main"."wk compose codes's" AS "c3"
  ON "c3".attr = 3 AND "c3".value = g."t3"
JOIN "temp"."main"."wk compose codes's" AS "c4"
  ON "c4".attr = 4 AND "c4".value = g."t4"
