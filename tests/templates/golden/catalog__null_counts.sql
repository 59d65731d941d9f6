/* purpose: the table's row count and the NULL count per column (QI and SA columns must be NULL-free unless --null-as-value), in one scan */
/* params: none */
/* returns: rows, then one column per checked column, in the given order */
/* ref: DESIGN §6 (NULLs in QI/SA: say how many) */
SELECT
  COUNT(*) AS "rows",
  COUNT(*) FILTER(WHERE
    "it's" IS NULL) AS "n1",
  COUNT(*) FILTER(WHERE
    "a""b" IS NULL) AS "n2",
  COUNT(*) FILTER(WHERE
    "Zip Code" IS NULL) AS "n3",
  COUNT(*) FILTER(WHERE
    "select" IS NULL) AS "n4",
  COUNT(*) FILTER(WHERE
    "ünï" IS NULL) AS "n5"
FROM "main"."select"
