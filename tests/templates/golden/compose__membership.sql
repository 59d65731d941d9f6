/* purpose: per target vector and word of SA values, each release's union mask side by side, on the words where an intersection the check counts can hold a value */
/* params: none */
/* returns: creates target(pid, word, m1..mM) (0 where a release leaves no value of the word) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"). The intersection over a set of releases holding the row is empty outside the words of any one of them without a shared mask (compose/shared.sql): per target and set (sets, as compose/values_left.sql's), the words of such a release's unit with the fewest words (the first on ties) are enough; where every release of the set holding the row has a shared mask, the words of all their units (values_left.sql counts the shared words apart). noshared (shape): per release, true when it has no shared mask. So a class that covers many targets is read on the few words of the other release's unit, not copied over all its words for every target it covers */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose membership's" AS
WITH tp AS (
  SELECT DISTINCT
    p.pid,
    k.present
  FROM "temp"."main"."wk compose keys's" AS k
  JOIN "temp"."main"."wk compose points's" AS p
    ON p."v1" = k."v1" AND p."v2" = k."v2" AND p."v3" = k."v3" AND p."v4" = k."v4"
), "n1" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "temp"."main"."wk compose unit masks's"
  GROUP BY
    uid
), "n2" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "temp"."main"."wk compose unit masks's"
  GROUP BY
    uid
), tu AS (
  SELECT
    tp.pid,
    tp.present,
    "x1".uid AS "u1",
    COALESCE("c1".w, 0) AS "w1",
    "x2".uid AS "u2",
    COALESCE("c2".w, 0) AS "w2"
  FROM tp
  LEFT JOIN "temp"."main"."wk compose units's" AS "x1"
    ON "x1".pid = tp.pid
  LEFT JOIN "n1" AS "c1"
    ON "c1".uid = "x1".uid
  LEFT JOIN "temp"."main"."wk compose units's" AS "x2"
    ON "x2".pid = tp.pid
  LEFT JOIN "n2" AS "c2"
    ON "c2".uid = "x2".uid
), chosen AS (
  SELECT
    pid,
    1 AS r,
    "u1" AS uid
  FROM tu
  WHERE
    (
      present & 1
    ) <> 0 AND NOT "u1" IS NULL
  UNION ALL
  SELECT
    pid,
    2 AS r,
    "u2" AS uid
  FROM tu
  WHERE
    (
      present & 2
    ) <> 0 AND NOT "u2" IS NULL AND (
      present & 1
    ) = 0
  UNION ALL
  SELECT
    pid,
    1 AS r,
    "u1" AS uid
  FROM tu
  WHERE
    (
      present & 1
    ) <> 0 AND NOT "u1" IS NULL
  UNION ALL
  SELECT
    pid,
    2 AS r,
    "u2" AS uid
  FROM tu
  WHERE
    (
      present & 2
    ) <> 0 AND NOT "u2" IS NULL AND (
      present & 1
    ) = 0
), words AS (
  SELECT
    c.pid,
    m.word
  FROM chosen AS c
  JOIN "temp"."main"."wk compose unit masks's" AS m
    ON m.uid = c.uid
  WHERE
    c.r = 1
  UNION
  SELECT
    c.pid,
    m.word
  FROM chosen AS c
  JOIN "temp"."main"."wk compose unit masks's" AS m
    ON m.uid = c.uid
  WHERE
    c.r = 2
)
SELECT
  w.pid,
  w.word,
  COALESCE("y1".mask, 0) AS "m1",
  COALESCE("y2".mask, 0) AS "m2"
FROM words AS w
LEFT JOIN "temp"."main"."wk compose units's" AS "x1"
  ON "x1".pid = w.pid
LEFT JOIN "temp"."main"."wk compose unit masks's" AS "y1"
  ON "y1".uid = "x1".uid AND "y1".word = w.word
LEFT JOIN "temp"."main"."wk compose units's" AS "x2"
  ON "x2".pid = w.pid
LEFT JOIN "temp"."main"."wk compose unit masks's" AS "y2"
  ON "y2".uid = "x2".uid AND "y2".word = w.word
