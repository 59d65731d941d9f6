/* purpose: per given column, its distinct values as the column's collation holds them equal, and its distinct spellings (the bytes): more spellings than values means a nondeterministic collation (PostgreSQL: a case-insensitive ICU collation; DuckDB: COLLATE NOCASE) holds some spellings one value */
/* params: none */
/* returns: one row: per given column, v<i> (values) and b<i> (spellings), in the given order */
/* ref: DESIGN §6 (bad input gets a clear error that names the problem); ldiv_db/core/inputs.py refuse_folded_sa (the algorithms that code SA values in Python, by their spelling) */
SELECT
  COUNT(DISTINCT "it's") AS "v1",
  COUNT(DISTINCT CAST("it's" AS TEXT) COLLATE "C") AS "b1",
  COUNT(DISTINCT "a""b") AS "v2",
  COUNT(DISTINCT CAST("a""b" AS TEXT) COLLATE "C") AS "b2",
  COUNT(DISTINCT "Zip Code") AS "v3",
  COUNT(DISTINCT CAST("Zip Code" AS TEXT) COLLATE "C") AS "b3",
  COUNT(DISTINCT "select") AS "v4",
  COUNT(DISTINCT CAST("select" AS TEXT) COLLATE "C") AS "b4",
  COUNT(DISTINCT "ünï") AS "v5",
  COUNT(DISTINCT CAST("ünï" AS TEXT) COLLATE "C") AS "b5"
FROM "main"."select"
