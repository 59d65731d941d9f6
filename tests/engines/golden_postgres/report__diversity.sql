/* purpose: per-class SA diversity of a published table as three distributions: classes by distinct SA count, by entropy l (binned), and by the highest value confidence (binned); NULL SA values (suppressed) count in |G| but are no value */
/* params: entropy_width, confidence_bins */
/* returns: measure ('distinct' | 'entropy' | 'confidence'), bin, classes, rows, lo, hi (distinct: bin = the count; entropy: bin b covers [b·width, (b+1)·width) of exp(H); confidence: bin b covers ((b−1)/bins, b/bins] of max n/|G|, computed exactly on integers; lo/hi = the smallest and largest value inside the bin) */
/* ref: SPEC §1 (distinct, entropy l = exp(−Σ p ln p), natural log), §2 (confidence = the attacker's best-guess probability) */
WITH cells AS (
  SELECT
    "it's",
    "a""b",
    "Zip Code",
    "select",
    "ünï" AS v,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY
    1,
    2,
    3,
    4,
    5
), per_class AS (
  SELECT
    SUM(n) AS size,
    COUNT(*) FILTER(WHERE
      NOT v IS NULL) AS n_distinct,
    COALESCE(MAX(n) FILTER(WHERE
      NOT v IS NULL), 0) AS top,
    EXP(
      -COALESCE(
        SUM(
          (
            CAST(n AS DOUBLE PRECISION) / size_all
          ) * LN(CAST(n AS DOUBLE PRECISION) / size_all)
        ) FILTER(WHERE
          NOT v IS NULL),
        0
      )
    ) AS entropy_l
  FROM (
    SELECT
      *,
      SUM(n) OVER (PARTITION BY "it's", "a""b", "Zip Code", "select") AS size_all
    FROM cells
  ) AS ldiv_sq0
  GROUP BY
    "it's",
    "a""b",
    "Zip Code",
    "select"
), binned AS (
  SELECT
    size,
    n_distinct,
    entropy_l,
    CAST(top AS DOUBLE PRECISION) / size AS confidence,
    CAST(FLOOR(
      CAST(entropy_l AS DOUBLE PRECISION) / (
        CAST(%(entropy_width)s AS DOUBLE PRECISION)
      )
    ) AS BIGINT) AS entropy_bin,
    CAST(DIV((
      top * (
        CAST(%(confidence_bins)s AS BIGINT)
      ) + size - 1
    ), size) AS BIGINT) AS confidence_bin
  FROM per_class
)
SELECT
  'distinct' AS measure,
  n_distinct AS bin,
  COUNT(*) AS classes,
  SUM(size) AS rows,
  CAST(MIN(n_distinct) AS DOUBLE PRECISION) AS lo,
  CAST(MAX(n_distinct) AS DOUBLE PRECISION) AS hi
FROM binned
GROUP BY
  n_distinct
UNION ALL
SELECT
  'entropy',
  entropy_bin,
  COUNT(*),
  SUM(size),
  MIN(entropy_l),
  MAX(entropy_l)
FROM binned
GROUP BY
  entropy_bin
UNION ALL
SELECT
  'confidence',
  confidence_bin,
  COUNT(*),
  SUM(size),
  MIN(confidence),
  MAX(confidence)
FROM binned
GROUP BY
  confidence_bin
ORDER BY
  measure,
  bin
