/* purpose: the one check of a stream batch's row keys, before anything is written: rows with a NULL key (an explicit --key), keys repeated inside the batch (an explicit --key), and keys the stream already received (published or kept back); a content fingerprint (no --key) only checks the last */
/* params: none */
/* returns: rows, null_rows, null_examples, repeated_rows, repeated_examples, known_rows, known_examples; the examples are up to 5 [row number, key text] pairs of the batch in row order */
/* ref: DESIGN §6 (a stream keys its rows and never publishes a source row twice); SPEC §4.3 (continuous release) */
WITH batch AS (
  SELECT
    (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) + 1 AS rn,
    CAST(TO_JSON(ARRAY[CAST(src."it's" AS TEXT), CAST(src."ünï" AS TEXT)]) AS TEXT) AS key_text,
    (
      src."it's" IS NULL OR src."ünï" IS NULL
    ) AS null_key
  FROM "main"."select" AS src
), keyed AS (
  SELECT
    rn,
    key_text,
    MD5(key_text) AS key_hash,
    NOT null_key AND COUNT(*) OVER (PARTITION BY key_text) > 1 AS repeated
  FROM batch
), known AS (
  SELECT
    k.rn,
    k.key_text
  FROM keyed AS k
  WHERE
    k.key_hash IN (
      SELECT
        key_hash
      FROM "ldiv"."keys:main.rel it's"
    )
)
SELECT
  (
    SELECT
      COUNT(*)
    FROM batch
  ) AS rows,
  (
    SELECT
      COUNT(*)
    FROM batch
    WHERE
      null_key
  ) AS null_rows,
  (
    SELECT
      (
        ARRAY_AGG(ARRAY[CAST(rn AS TEXT), key_text] ORDER BY rn)
      )[1:5]
    FROM batch
    WHERE
      null_key
  ) AS null_examples,
  (
    SELECT
      COUNT(*)
    FROM keyed
    WHERE
      repeated
  ) AS repeated_rows,
  (
    SELECT
      (
        ARRAY_AGG(ARRAY[CAST(rn AS TEXT), key_text] ORDER BY rn)
      )[1:5]
    FROM keyed
    WHERE
      repeated
  ) AS repeated_examples,
  (
    SELECT
      COUNT(*)
    FROM known
  ) AS known_rows,
  (
    SELECT
      (
        ARRAY_AGG(ARRAY[CAST(rn AS TEXT), key_text] ORDER BY rn)
      )[1:5]
    FROM known
  ) AS known_examples
