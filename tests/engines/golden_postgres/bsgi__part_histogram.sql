/* purpose: BSGI in parts: rows per code prefix (the locality order's leading QIs) and SA bucket, from which the parts plan reads where equal slabs of the order would cut each bucket */
/* params: none */
/* returns: p1..pk, b, n — one row per (prefix codes, bucket) present */
/* ref: ldiv_db/algorithms/bsgi/refine/parts.py (natural_counts) */
SELECT
  "q3" AS "p1",
  "q1" AS "p2",
  b,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  "q3",
  "q1",
  b
