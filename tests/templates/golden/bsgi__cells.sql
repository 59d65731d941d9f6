/* purpose: BSGI's compressed rows: a cell = the rows of one bucket with equal QI codes (and equal secondary SA and individual codes); with parted, the rows of one part only (sql/bsgi/parts.sql) */
/* params: part */
/* returns: rid, cell, b, q1..qd, s2..sk, ind — one row per source row (of the part), ordered by cell, rid (cells numbered by bucket, then codes) */
/* ref: DESIGN §5 (compress first); SPEC §0.6 rule 1 (a cell's rows leave it in ascending row id) */
SELECT
  rid,
  DENSE_RANK() OVER (ORDER BY b, "q1", "q2", "q3", "q4", "s2", ind) - 1 AS cell,
  b,
  "q1",
  "q2",
  "q3",
  "q4",
  "s2",
  ind
FROM "temp"."main"."wk bsgi parts's"
WHERE
  part = $part
ORDER BY
  cell,
  rid
