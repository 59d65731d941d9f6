/* purpose: the composition's counts: targets (source rows), rows left below each release's l, with one value, with none */
/* params: ls */
/* returns: rows, single, empty, below1..belowM (one row; counts of source rows) */
/* ref: docs/decisions/0005-composition-check.md; ls[r] is the r-th release's l (the pairs' counts: compose/pair_counts.sql) */
SELECT
  CAST(COALESCE(SUM(n), 0) AS BIGINT) AS "rows",
  CAST(COALESCE(SUM(n) FILTER(WHERE
    left_all = 1), 0) AS BIGINT) AS single,
  CAST(COALESCE(SUM(n) FILTER(WHERE
    left_all = 0), 0) AS BIGINT) AS empty,
  CAST(COALESCE(SUM(n) FILTER(WHERE
    left_all < LIST_EXTRACT($ls, 1)), 0) AS BIGINT) AS "below1",
  CAST(COALESCE(SUM(n) FILTER(WHERE
    left_all < LIST_EXTRACT($ls, 2)), 0) AS BIGINT) AS "below2"
FROM "temp"."main"."wk compose left's"
