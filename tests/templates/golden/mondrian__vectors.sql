/* purpose: Mondrian's compressed input: per distinct QI vector its ordinals, and per SA the count of every SA value among its rows */
/* params: none */
/* returns: vid, o1..od, missing (the cell's rows with a NULL ordinal), s (SA position, 1-based), v (SA value code: dense rank of the value within its SA), n — one row per (vid, s, v), in no order (the caller sorts its integer keys) */
/* ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)); the SA values (text) ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql), */
/*      each spelling coded once and joined back to the (vector, value) counts (bench/results/history.md, "One million rows", Round 3) */
WITH counts AS (
  /* a vector's ordinals are the same on all its rows (min: that value, or NULL): taken in the (vector, */
  /* value) aggregate, not by a second aggregate of every row joined back (bench/results/history.md, */
  /* "One million rows", Round 6b) */
  SELECT
    vid,
    MIN("o1") AS "o1",
    MIN("o2") AS "o2",
    MIN("o3") AS "o3",
    MIN("o4") AS "o4",
    COUNT(*) FILTER(WHERE
      "o1" IS NULL OR "o2" IS NULL OR "o3" IS NULL OR "o4" IS NULL) AS missing,
    1 AS s,
    "s1" AS value,
    COUNT(*) AS n
  FROM "temp"."main"."wk mondrian rows's"
  GROUP BY
    vid,
    "s1"
  UNION ALL
  SELECT
    vid,
    MIN("o1") AS "o1",
    MIN("o2") AS "o2",
    MIN("o3") AS "o3",
    MIN("o4") AS "o4",
    COUNT(*) FILTER(WHERE
      "o1" IS NULL OR "o2" IS NULL OR "o3" IS NULL OR "o4" IS NULL) AS missing,
    2 AS s,
    "s2" AS value,
    COUNT(*) AS n
  FROM "temp"."main"."wk mondrian rows's"
  GROUP BY
    vid,
    "s2"
), spellings AS (
  /* each SA's values once per spelling (a few rows): they are coded there, not on every (vector, value) row */
  SELECT DISTINCT
    s,
    value COLLATE "C" AS spelling,
    value
  FROM counts
), codes AS (
  /* per SA value its first spelling in the bytes' order: values the column's collation holds equal */
  /* (a case-insensitive collation: 'flu', 'FLU') are one value, as every other count of ldiv_db says */
  SELECT
    s,
    spelling,
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
  c.vid,
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
  ON codes.s = c.s
  AND COALESCE(codes.spelling, '') = COALESCE(c.value COLLATE "C", '')
  AND (
    codes.spelling IS NULL
  ) = (
    c.value IS NULL
  )
