/* purpose: per given numeric column, how many rows hold NaN or an infinity (a numeric QI is generalized into ranges and medians, where neither has a place) */
/* params: none */
/* returns: one count per given column, in the given order */
/* ref: DESIGN §6 (bad input gets a clear error that names the problem); compared as text, which every engine spells alike up to case: NaN / nan, Infinity / inf */
SELECT
  COUNT(*) FILTER(WHERE
    LOWER(CAST("it's" AS TEXT)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')) AS "n1",
  COUNT(*) FILTER(WHERE
    LOWER(CAST("a""b" AS TEXT)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')) AS "n2",
  COUNT(*) FILTER(WHERE
    LOWER(CAST("Zip Code" AS TEXT)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')) AS "n3",
  COUNT(*) FILTER(WHERE
    LOWER(CAST("select" AS TEXT)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')) AS "n4",
  COUNT(*) FILTER(WHERE
    LOWER(CAST("ünï" AS TEXT)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')) AS "n5"
FROM "main"."select"
