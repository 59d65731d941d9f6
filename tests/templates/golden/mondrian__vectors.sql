/* purpose: Mondrian's compressed input: per distinct QI vector its ordinals, and per SA the count of every SA value among its rows */
/* params: none */
/* returns: vid, o1..od, s (SA position, 1-based), v (SA value code: dense rank of the value within its SA), n — one row per (vid, s, v), in no order (the caller sorts its integer keys) */
/* ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)); the SA values (text) ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql), */
/*      each spelling coded once and joined back to the (vector, value) counts (bench/results/history.md, "One million rows", Round 3) */
WITH counts AS (
  SELECT
    vid,
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
), coded AS (
  /* a NULL value (--null-as-value) is a spelling of its own: matched as one, not by equality */
  SELECT
    c.vid,
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
), vectors AS (
  SELECT
    vid,
    ANY_VALUE("o1") AS "o1",
    ANY_VALUE("o2") AS "o2",
    ANY_VALUE("o3") AS "o3",
    ANY_VALUE("o4") AS "o4",
    COUNT(*) FILTER(WHERE
      "o1" IS NULL OR "o2" IS NULL OR "o3" IS NULL OR "o4" IS NULL) AS missing
  FROM "temp"."main"."wk mondrian rows's"
  GROUP BY
    vid
)
SELECT
  coded.vid,
  vectors."o1",
  vectors."o2",
  vectors."o3",
  vectors."o4",
  vectors.missing,
  coded.s,
  coded.v,
  coded.n
FROM coded
JOIN vectors
  ON vectors.vid = coded.vid
