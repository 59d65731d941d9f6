/* purpose: Mondrian's compressed input: per distinct QI vector (its ordinals) and SA the count of every SA value among its rows */
/* params: none */
/* returns: o1..od, missing (the cell's rows with a NULL ordinal), s (SA position, 1-based), v (SA value code: dense rank of the value within its SA), n — one row per (vector, s, v), in no order (the caller numbers the vectors and sorts its integer keys) */
/* ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)); the SA values (text) ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql), */
/*      each spelling coded once and joined back to the (vector, value) counts (bench/results/history.md, "One million rows", Round 3) */
/*      on one key, the SA's position and the spelling (NULL marked apart from every value): with the position and the spelling */
/*      as two equalities PostgreSQL merged on the position alone (one value for one SA) and compared the spellings of every */
/*      pair, quadratic in the SA's values (bench/results/history.md, "Round 24: PostgreSQL on the shapes") */
WITH counts AS (
  SELECT
    "o1",
    "o2",
    "o3",
    "o4",
    COUNT(*) FILTER(WHERE
      "o1" IS NULL OR "o2" IS NULL OR "o3" IS NULL OR "o4" IS NULL) AS missing,
    1 AS s,
    "s1" AS value,
    COUNT(*) AS n
  FROM "pg_temp"."wk mondrian rows's"
  GROUP BY
    "o1",
    "o2",
    "o3",
    "o4",
    "s1"
  UNION ALL
  SELECT
    "o1",
    "o2",
    "o3",
    "o4",
    COUNT(*) FILTER(WHERE
      "o1" IS NULL OR "o2" IS NULL OR "o3" IS NULL OR "o4" IS NULL) AS missing,
    2 AS s,
    "s2" AS value,
    COUNT(*) AS n
  FROM "pg_temp"."wk mondrian rows's"
  GROUP BY
    "o1",
    "o2",
    "o3",
    "o4",
    "s2"
), spellings AS (
  SELECT DISTINCT
    s,
    value COLLATE "C" AS spelling,
    value
  FROM counts
), codes AS (
  SELECT
    CAST(s AS TEXT) || CASE WHEN spelling IS NULL THEN '#' ELSE ':' || spelling END AS k,
    DENSE_RANK() OVER (PARTITION BY s ORDER BY first COLLATE "C") - 1 AS v
  FROM (
    SELECT
      s,
      spelling,
      MIN(spelling) OVER (PARTITION BY s, value) AS first
    FROM spellings
  ) AS f
)
SELECT
  c."o1",
  c."o2",
  c."o3",
  c."o4",
  c.missing,
  c.s,
  codes.v,
  c.n
FROM counts AS c
JOIN codes
  ON codes.k = CAST(c.s AS TEXT) || CASE WHEN c.value IS NULL THEN '#' ELSE ':' || (
    c.value COLLATE "C"
  ) END
