/* purpose: the targets the releases leave fewest SA values: their QI values and the values left (never a source row id) */
/* params: worst */
/* returns: left_all, n, v1..vk (the QI values as text), sa_left (a list, in the bytes' order); fewest values first, then most rows, then the vectors' order, then the releases holding them (a vector whose rows some release deleted is listed once per set of releases holding its rows) */
/* ref: docs/decisions/0005-composition-check.md; targets no release holds are left every value and are not listed; the values left are the AND, over the releases holding the row, of their union masks (as values_left.sql: a release's shared mask OR the target's own), over the words either holds; present is keys.sql's text, one character per release */
WITH w AS (
  SELECT
    pid,
    present,
    n,
    cmb,
    left_all
  FROM "temp"."main"."wk compose left's"
  WHERE
    present LIKE '%1%'
  ORDER BY
    left_all,
    n DESC,
    pid,
    present
  LIMIT $worst
), words AS (
  SELECT
    w.pid,
    w.present,
    m.word
  FROM w
  JOIN "temp"."main"."wk compose membership's" AS m
    ON m.cmb = w.cmb
  UNION
  SELECT
    w.pid,
    w.present,
    s.word
  FROM w
  CROSS JOIN "temp"."main"."wk compose shared's" AS s
), a AS (
  SELECT
    x.pid,
    x.present,
    x.word,
    CASE
      WHEN SUBSTRING(w.present, 1, 1) = '1'
      THEN COALESCE(s."a1", 0) | COALESCE(m."m1", 0)
      ELSE -1
    END & CASE
      WHEN SUBSTRING(w.present, 2, 1) = '1'
      THEN COALESCE(s."a2", 0) | COALESCE(m."m2", 0)
      ELSE -1
    END AS mask
  FROM words AS x
  JOIN w
    ON w.pid = x.pid AND w.present = x.present
  LEFT JOIN "temp"."main"."wk compose membership's" AS m
    ON m.cmb = w.cmb AND m.word = x.word
  LEFT JOIN "temp"."main"."wk compose shared's" AS s
    ON s.word = x.word
)
SELECT
  w.left_all,
  w.n,
  "t1".value AS "v1",
  "t2".value AS "v2",
  "t3".value AS "v3",
  "t4".value AS "v4",
  ARRAY_AGG(d.sa ORDER BY d.sa COLLATE "C") FILTER(WHERE
    NOT d.sa IS NULL) AS sa_left
FROM w
JOIN "temp"."main"."wk compose points's" AS p
  ON p.pid = w.pid
JOIN "temp"."main"."wk compose codes's" AS "t1"
  ON "t1".attr = 1 AND "t1".code = p."v1"
JOIN "temp"."main"."wk compose codes's" AS "t2"
  ON "t2".attr = 2 AND "t2".code = p."v2"
JOIN "temp"."main"."wk compose codes's" AS "t3"
  ON "t3".attr = 3 AND "t3".code = p."v3"
JOIN "temp"."main"."wk compose codes's" AS "t4"
  ON "t4".attr = 4 AND "t4".code = p."v4"
LEFT JOIN a
  ON a.pid = w.pid AND a.present = w.present
LEFT JOIN "temp"."main"."wk compose domain's" AS d
  ON d.word = a.word AND (
    a.mask & d.bit
  ) <> 0
GROUP BY
  w.pid,
  w.present,
  w.n,
  w.left_all,
  "t1".value,
  "t2".value,
  "t3".value,
  "t4".value
ORDER BY
  w.left_all,
  w.n DESC,
  w.pid,
  w.present
